package io.basalt.spark.it;

import org.apache.spark.sql.SparkSession;

/**
 * The serializer matrix under Kryo with {@code spark.kryo.registrationRequired}: every class Basalt
 * ships must be registered by {@code BasaltKryoRegistrator}, as docs/configuration.md tells users.
 */
class SerializerKryoRegistrationRequiredIT extends SerializerMatrixTestBase {
  @Override
  protected void configure(SparkSession.Builder builder) {
    builder
        .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
        .config("spark.kryo.registrationRequired", "true")
        .config("spark.kryo.registrator", "io.basalt.spark.BasaltKryoRegistrator");
  }
}
