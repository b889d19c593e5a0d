package io.basalt.spark.extensions;

import java.util.List;
import java.util.function.Function;
import scala.Function1;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractFunction1;

/** The one place that converts between Java and Scala functions and collections. */
public final class ScalaInterop {
  private ScalaInterop() {}

  /** {@code function} as a Scala function. */
  public static <A, B> Function1<A, B> function(Function<A, B> function) {
    return new SerializableFunction1<>(function);
  }

  public static <T> List<T> toJava(scala.collection.Seq<T> seq) {
    return CollectionConverters.asJava(seq);
  }

  public static <T> Seq<T> toScala(List<T> list) {
    return CollectionConverters.asScala(list).toList();
  }

  private static final class SerializableFunction1<A, B> extends AbstractFunction1<A, B>
      implements java.io.Serializable {
    private final Function<A, B> function;

    SerializableFunction1(Function<A, B> function) {
      this.function = function;
    }

    @Override
    public B apply(A value) {
      return function.apply(value);
    }
  }
}
