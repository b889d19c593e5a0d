package io.basalt.spark.it;

/** The serializer matrix under Spark's default Java serializer. */
class SerializerJavaIT extends SerializerMatrixTestBase {}
