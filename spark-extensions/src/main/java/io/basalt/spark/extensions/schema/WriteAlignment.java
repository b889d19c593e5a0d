package io.basalt.spark.extensions.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.ArrayTransform;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.CreateNamedStruct;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GetStructField;
import org.apache.spark.sql.catalyst.expressions.If;
import org.apache.spark.sql.catalyst.expressions.IsNull;
import org.apache.spark.sql.catalyst.expressions.LambdaFunction;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression$;
import org.apache.spark.sql.catalyst.expressions.NamedLambdaVariable;
import org.apache.spark.sql.catalyst.expressions.TransformKeys;
import org.apache.spark.sql.catalyst.expressions.TransformValues;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataType$;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Rewrites a write's columns into the (evolved) table's columns, in the table's order and by name:
 * a column or struct field the data lacks becomes NULL, a struct is rebuilt field by field (a NULL
 * struct stays NULL), the elements of an array and the keys and values of a map are rewritten one
 * by one with Spark's higher-order functions (transform, transform_keys, transform_values), and
 * with explicit cast a value Spark would not store by itself is CAST. Other type differences are
 * left to Spark's own write resolution, which runs next.
 */
final class WriteAlignment {
  private final MergeSchemaSettings settings;
  private final NameMatch names;

  WriteAlignment(MergeSchemaSettings settings, NameMatch names) {
    this.settings = settings;
    this.names = names;
  }

  /** One named expression per column of {@code target}, computed from {@code data}. */
  List<NamedExpression> align(List<Attribute> data, StructType target) {
    List<NamedExpression> projection = new ArrayList<>();
    for (StructField column : target.fields()) {
      Expression value = null;
      for (Attribute attribute : data) {
        if (names.same(attribute.name(), column.name())) {
          value = convert(attribute, attribute.dataType(), column.dataType());
          break;
        }
      }
      if (value == null) {
        value = Literal.create(null, column.dataType());
      }
      projection.add(alias(value, column.name()));
    }
    return projection;
  }

  /**
   * Whether two types have the same names and types at every depth, whatever their nullability and
   * field metadata (a table's nested fields carry their field ids as metadata, a query's do not).
   */
  static boolean sameType(DataType a, DataType b) {
    return DataType$.MODULE$.equalsIgnoreNullability(a, b);
  }

  /** {@code value} as the table's type; {@code value} itself when Spark's resolution suffices. */
  private Expression convert(Expression value, DataType from, DataType to) {
    if (sameType(from, to)) {
      return value;
    }
    if (from instanceof StructType fromStruct && to instanceof StructType toStruct) {
      return rebuild(value, fromStruct, toStruct);
    }
    if (from instanceof ArrayType fromArray && to instanceof ArrayType toArray) {
      return transformElements(value, fromArray, toArray);
    }
    if (from instanceof MapType fromMap && to instanceof MapType toMap) {
      return transformEntries(value, fromMap, toMap);
    }
    if (settings.explicitCast()
        && !Cast.canANSIStoreAssign(from, to)
        && Cast.canAnsiCast(from, to)) {
      return new Cast(
          value, to, Option.empty(), org.apache.spark.sql.catalyst.expressions.EvalMode.ANSI());
    }
    return value;
  }

  private Expression rebuild(Expression value, StructType from, StructType to) {
    List<Expression> children = new ArrayList<>();
    for (StructField field : to.fields()) {
      children.add(Literal.create(field.name(), DataTypes.StringType));
      int index = names.indexOf(from, field.name());
      if (index < 0) {
        children.add(Literal.create(null, field.dataType()));
      } else {
        StructField source = from.fields()[index];
        Expression child = new GetStructField(value, index, Option.apply(source.name()));
        children.add(convert(child, source.dataType(), field.dataType()));
      }
    }
    Expression struct = new CreateNamedStruct(CollectionConverters.asScala(children).toSeq());
    return new If(new IsNull(value), Literal.create(null, struct.dataType()), struct);
  }

  // transform(value, x -> convert(x)); a NULL array stays NULL
  private Expression transformElements(Expression value, ArrayType from, ArrayType to) {
    NamedLambdaVariable element = variable("element", from.elementType(), from.containsNull());
    Expression converted = convert(element, from.elementType(), to.elementType());
    if (converted == element) {
      return value;
    }
    return new ArrayTransform(value, lambda(converted, element));
  }

  // transform_keys, then transform_values, each only when the keys or values change
  private Expression transformEntries(Expression value, MapType from, MapType to) {
    Expression result = value;
    NamedLambdaVariable key = variable("key", from.keyType(), false);
    NamedLambdaVariable keyValue = variable("value", from.valueType(), from.valueContainsNull());
    Expression newKey = convert(key, from.keyType(), to.keyType());
    if (newKey != key) {
      result = new TransformKeys(result, lambda(newKey, key, keyValue));
    }
    NamedLambdaVariable entryKey = variable("key", newKey.dataType(), false);
    NamedLambdaVariable entryValue = variable("value", from.valueType(), from.valueContainsNull());
    Expression newValue = convert(entryValue, from.valueType(), to.valueType());
    if (newValue != entryValue) {
      result = new TransformValues(result, lambda(newValue, entryKey, entryValue));
    }
    return result;
  }

  private static NamedLambdaVariable variable(String name, DataType type, boolean nullable) {
    return new NamedLambdaVariable(
        name, type, nullable, NamedExpression$.MODULE$.newExprId(), new AtomicReference<>());
  }

  private static LambdaFunction lambda(Expression body, NamedLambdaVariable... arguments) {
    return new LambdaFunction(
        body, CollectionConverters.asScala(List.<NamedExpression>of(arguments)).toSeq(), false);
  }

  static NamedExpression alias(Expression value, String name) {
    return new Alias(
        value,
        name,
        NamedExpression$.MODULE$.newExprId(),
        CollectionConverters.asScala(List.<String>of()).toSeq(),
        Option.empty(),
        CollectionConverters.asScala(List.<String>of()).toSeq());
  }
}
