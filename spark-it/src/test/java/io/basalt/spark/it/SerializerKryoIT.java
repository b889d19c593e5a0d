package io.basalt.spark.it;

import org.apache.spark.sql.SparkSession;

/** The serializer matrix under Kryo, as most production clusters run, without a registrator. */
class SerializerKryoIT extends SerializerMatrixTestBase {
  @Override
  protected void configure(SparkSession.Builder builder) {
    builder.config("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
  }
}
