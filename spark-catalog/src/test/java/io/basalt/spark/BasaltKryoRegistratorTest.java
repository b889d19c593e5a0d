package io.basalt.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import java.io.Serializable;
import org.junit.jupiter.api.Test;

class BasaltKryoRegistratorTest {

  @Test
  void registersEveryShippedClassWithJavaSerialization() {
    Kryo kryo = new Kryo();
    kryo.setRegistrationRequired(true);
    new BasaltKryoRegistrator().registerClasses(kryo);
    for (String name : BasaltKryoRegistrator.SHIPPED_CLASSES) {
      Class<?> type = BasaltKryoRegistrator.shippedClass(name, getClass().getClassLoader());
      assertThat(kryo.getRegistration(type).getSerializer()).isInstanceOf(JavaSerializer.class);
      assertThat(Serializable.class).isAssignableFrom(type);
    }
  }

  @Test
  void everyShippedClassDefaultsToJavaSerializationWithoutTheRegistrator() {
    for (String name : BasaltKryoRegistrator.SHIPPED_CLASSES) {
      Class<?> type = BasaltKryoRegistrator.shippedClass(name, getClass().getClassLoader());
      DefaultSerializer annotation = type.getAnnotation(DefaultSerializer.class);
      assertThat(annotation).as(name).isNotNull();
      assertThat(annotation.value()).as(name).isEqualTo(JavaSerializer.class);
      assertThat(new Kryo().getDefaultSerializer(type)).isInstanceOf(JavaSerializer.class);
    }
  }

  @Test
  void aMissingClassNamesItAndTheFix() {
    assertThatThrownBy(
            () ->
                BasaltKryoRegistrator.shippedClass(
                    "io.basalt.spark.NoSuchClass", getClass().getClassLoader()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot load class io.basalt.spark.NoSuchClass")
        .hasMessageContaining("only one Basalt version is on the class path");
  }
}
