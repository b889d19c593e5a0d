package io.basalt.manifest;

import io.basalt.BasaltException;
import io.basalt.utils.Check;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javax.annotation.Nullable;

/**
 * Reads a list of manifests with up to {@code parallelism} of them decoding at once, and hands
 * their entries to the caller's thread <em>in list order</em>, manifest by manifest, so folding ADD
 * and DELETE entries sees the same sequence as a serial read.
 *
 * <p>Memory: at most {@code parallelism} decoded manifests wait to be consumed (manifests are
 * rolled at {@code manifest.target-file-size}). With parallelism 1 and no cache, entries stream
 * straight from the file. With a {@link ManifestCache}, decoded manifests are kept there and later
 * reads of the same manifest decode nothing.
 *
 * <p>Single use; not thread-safe (the caller's thread drives it).
 */
public final class ParallelManifestReader {
  /** Threads are created on demand and die when idle; each reader bounds its own concurrency. */
  private static final ExecutorService POOL =
      new ThreadPoolExecutor(
          0,
          Integer.MAX_VALUE,
          30,
          TimeUnit.SECONDS,
          new SynchronousQueue<>(),
          new DaemonThreads());

  private final ManifestFiles files;
  private final String context;
  private final int parallelism;
  @Nullable private final ManifestCache cache;
  private long fromStorage;
  private long fromCache;
  private long onWorkers;

  /**
   * @param context what the manifests belong to, e.g. {@code "snapshot 3 of table db.t"}, named in
   *     errors
   * @param cache where decoded manifests are kept, or null to decode every time
   */
  public ParallelManifestReader(
      ManifestFiles files, String context, int parallelism, @Nullable ManifestCache cache) {
    Check.argument(parallelism >= 1, "Manifest read parallelism must be >= 1, not %s", parallelism);
    this.files = files;
    this.context = context;
    this.parallelism = parallelism;
    this.cache = cache;
  }

  /**
   * Passes every entry of {@code manifests}, in order, to {@code consumer} on the calling thread.
   *
   * @throws BasaltException naming the manifest and the context when one cannot be read; reads
   *     still running are cancelled
   */
  public void read(List<String> manifests, Consumer<ManifestEntry> consumer) {
    if (parallelism == 1 || manifests.size() <= 1) {
      for (String name : manifests) {
        readSerially(name, consumer);
      }
      return;
    }
    ArrayDeque<Pending> window = new ArrayDeque<>();
    int next = 0;
    try {
      while (next < manifests.size() && window.size() < parallelism) {
        window.add(submit(manifests.get(next++)));
      }
      while (!window.isEmpty()) {
        Loaded loaded = await(window.poll());
        if (next < manifests.size()) {
          // keep the window full while the caller folds this manifest
          window.add(submit(manifests.get(next++)));
        }
        count(loaded.fromCache());
        loaded.entries().forEach(consumer);
      }
    } finally {
      for (Pending pending : window) {
        pending.future().cancel(true);
      }
    }
  }

  /** Manifests this reader decoded from storage. */
  public long fromStorage() {
    return fromStorage;
  }

  /** Manifests this reader took from the cache. */
  public long fromCache() {
    return fromCache;
  }

  /**
   * Manifests handed to a worker thread; cached ones never are, so a warm read stays on the
   * caller's thread.
   */
  public long onWorkers() {
    return onWorkers;
  }

  private void readSerially(String name, Consumer<ManifestEntry> consumer) {
    if (cache == null) {
      try (CloseableIterator<ManifestEntry> it = files.readManifest(name, context)) {
        it.forEachRemaining(consumer);
      }
      count(false);
      return;
    }
    Loaded loaded = load(name);
    count(loaded.fromCache());
    loaded.entries().forEach(consumer);
  }

  private void count(boolean cached) {
    if (cached) {
      fromCache++;
    } else {
      fromStorage++;
    }
  }

  private Pending submit(String name) {
    List<ManifestEntry> cached = cachedEntries(name);
    if (cached != null) {
      // a cache hit costs a map lookup: a hand-off to a worker would cost more than it saves, and
      // on a busy machine each hand-off waits for the scheduler
      return new Pending(
          name, java.util.concurrent.CompletableFuture.completedFuture(new Loaded(cached, true)));
    }
    onWorkers++;
    // the caller's class loader (Spark's --jars loader), so file systems resolve in the worker
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    return new Pending(
        name,
        POOL.submit(
            () -> {
              Thread.currentThread().setContextClassLoader(loader);
              return decode(name); // looked up in the cache above: one miss, not two
            }));
  }

  private Loaded await(Pending pending) {
    try {
      return pending.future().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BasaltException(
          "Interrupted while reading manifest " + pending.name() + " of " + context, e);
    } catch (CancellationException e) {
      throw new BasaltException(
          "The read of manifest " + pending.name() + " of " + context + " was cancelled", e);
    } catch (ExecutionException e) {
      throw failure(pending.name(), e.getCause());
    }
  }

  /** The worker's error as it is when it names the manifest already, otherwise wrapped. */
  private RuntimeException failure(String name, Throwable cause) {
    if (cause instanceof RuntimeException runtime
        && runtime.getMessage() != null
        && runtime.getMessage().contains(name)) {
      return runtime;
    }
    return new BasaltException(
        "Failed to read manifest " + name + " of " + context + ": " + cause, cause);
  }

  /** Decodes a manifest whole, or takes it from the cache. */
  private Loaded load(String name) {
    List<ManifestEntry> cached = cachedEntries(name);
    return cached != null ? new Loaded(cached, true) : decode(name);
  }

  /** Decodes a manifest whole and puts it in the cache, if there is one. */
  private Loaded decode(String name) {
    List<ManifestEntry> entries = new ArrayList<>();
    long weight = 0;
    try (CloseableIterator<ManifestEntry> it = files.readManifest(name, context)) {
      while (it.hasNext()) {
        ManifestEntry entry = it.next();
        entries.add(entry);
        if (cache != null) {
          weight += ManifestCache.estimate(entry);
        }
      }
    }
    if (cache != null) {
      cache.put(files.paths().manifestFile(name).toString(), entries, weight);
    }
    return new Loaded(entries, false);
  }

  @Nullable
  private List<ManifestEntry> cachedEntries(String name) {
    return cache == null ? null : cache.get(files.paths().manifestFile(name).toString());
  }

  private record Pending(String name, Future<Loaded> future) {}

  private record Loaded(List<ManifestEntry> entries, boolean fromCache) {}

  private static final class DaemonThreads implements java.util.concurrent.ThreadFactory {
    private final AtomicInteger count = new AtomicInteger();

    @Override
    public Thread newThread(Runnable task) {
      Thread thread = new Thread(task, "basalt-manifest-reader-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    }
  }
}
