package io.basalt.operation.history;

import io.basalt.BasaltException;
import io.basalt.branch.BranchManager;
import io.basalt.fs.TablePaths;
import io.basalt.operation.expire.FileReferences;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;

/**
 * Deletes branches: each branch's directory (schemas, snapshots, tags), then the data, manifest and
 * index files that only that branch referenced. Files main, its tags or another branch still
 * reference stay. A commit racing on a deleted branch may leave files behind, which {@code
 * remove_orphan_files} removes.
 */
public final class DeleteBranch {
  private final FileStoreTable main;
  private final BranchManager branches;

  /**
   * @param table any branch of the table
   */
  public DeleteBranch(FileStoreTable table) {
    this.main = table.switchToBranch(TablePaths.MAIN_BRANCH);
    this.branches = main.branchManager();
  }

  /**
   * Deletes the branches {@code names}. Every name is checked before anything is deleted.
   *
   * @return how many data files were deleted
   * @throws BasaltException naming the branch when one is main, unknown or given twice
   */
  public int delete(List<String> names) {
    List<String> seen = new ArrayList<>();
    for (String name : names) {
      branches.checkDeletable(name);
      if (seen.contains(name)) {
        throw new BasaltException(
            String.format("Branch '%s' of table %s is named twice", name, main.name()));
      }
      seen.add(name);
    }
    int deleted = 0;
    for (String name : names) {
      FileReferences candidates = new FileReferences(main).addBranch(main.switchToBranch(name));
      branches.delete(name);
      FileReferences retained = new FileReferences(main).addBranch(main).addOtherBranches();
      deleted += candidates.deleteUnreferenced(retained);
    }
    return deleted;
  }
}
