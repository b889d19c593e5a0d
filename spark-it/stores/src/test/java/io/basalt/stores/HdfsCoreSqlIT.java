package io.basalt.stores;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/** The core SQL suite on HDFS: a MiniDFSCluster (one data node) on the loopback interface. */
class HdfsCoreSqlIT extends CoreSqlSuite {
  private MiniDFSCluster cluster;
  private Path baseDir;

  @Override
  protected String startStore() throws Exception {
    baseDir = Files.createTempDirectory("basalt-hdfs-");
    cluster = MiniHdfs.start(baseDir);
    return cluster.getURI() + "/warehouse";
  }

  @Override
  protected Map<String, String> hadoopConf() {
    return Map.of("fs.defaultFS", cluster.getURI().toString());
  }

  @Override
  protected void stopStore() {
    if (cluster != null) {
      cluster.shutdown();
    }
    StoresTestSupport.deleteRecursively(baseDir);
  }

  /** Starts clusters for the HDFS tests. */
  static final class MiniHdfs {
    private MiniHdfs() {}

    static MiniDFSCluster start(Path baseDir) throws java.io.IOException {
      Configuration conf = new Configuration();
      conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, baseDir.toString());
      conf.set("dfs.namenode.rpc-address", "127.0.0.1:0");
      conf.set("dfs.namenode.http-address", "127.0.0.1:0");
      conf.set("dfs.datanode.address", "127.0.0.1:0");
      conf.set("dfs.datanode.http.address", "127.0.0.1:0");
      conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
      return new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    }
  }
}
