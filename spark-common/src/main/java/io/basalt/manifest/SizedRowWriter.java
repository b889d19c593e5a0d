package io.basalt.manifest;

import io.basalt.avro.RowWriter;

/** A metadata file writer that knows how large its file is. */
public interface SizedRowWriter<T> extends RowWriter<T> {

  /** The bytes written so far (an estimate while open); the file's size once closed. */
  long size();

  /** Stops writing without finishing the file; the caller deletes it. */
  void abort();
}
