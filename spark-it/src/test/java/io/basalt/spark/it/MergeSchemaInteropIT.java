package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Paimon 1.3.1 reads a table that Basalt's {@code write.merge-schema} evolved (a new column, new
 * fields in a struct, in array elements and in map values) and gets the rows Basalt reads, from the
 * files written before and after the change, also after Paimon compacted them together.
 */
class MergeSchemaInteropIT extends SparkTestBase {
  private PaimonInterop paimon;

  @BeforeAll
  void openPaimon() {
    paimon = new PaimonInterop(warehouse);
    sql("CREATE DATABASE IF NOT EXISTS msi");
  }

  @AfterAll
  void closePaimon() throws Exception {
    paimon.close();
  }

  @AfterEach
  void reset() {
    spark.conf().unset("spark.paimon.write.merge-schema");
  }

  @Test
  void paimonReadsTablesEvolvedOnWrite() throws Exception {
    for (String table : List.of("pk", "app")) {
      String properties =
          table.equals("pk") ? "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1')" : "";
      sql(
          "CREATE TABLE msi.%s (id INT NOT NULL, s STRUCT<p: INT>, items ARRAY<STRUCT<a: INT>>,"
              + " m MAP<STRING, STRUCT<x: INT>>) %s",
          table, properties);
      sql(
          "INSERT INTO msi.%s VALUES (1, named_struct('p', 1), array(named_struct('a', 1)),"
              + " map('k', named_struct('x', 1))), (2, NULL, NULL, NULL)",
          table);
      spark.conf().set("spark.paimon.write.merge-schema", "true");
      sql(
          "INSERT INTO msi.%s BY NAME SELECT 3 AS id, 'new' AS extra,"
              + " named_struct('q', 'q3', 'p', 3) AS s,"
              + " array(named_struct('b', 'b3', 'a', 3), NULL) AS items,"
              + " map('k3', named_struct('y', 30L, 'x', 3)) AS m",
          table);
      sql("INSERT INTO msi.%s BY NAME SELECT 4 AS id, array(named_struct('a', 4)) AS items", table);

      List<String> expected =
          List.of(
              "1,{1,null},[{1,null}],{k={1,null}},null",
              "2,null,null,null,null",
              "3,{3,q3},[{3,b3}, null],{k3={3,30}},new",
              "4,null,[{4,null}],null,null");
      assertThat(basaltRows("msi." + table)).isEqualTo(expected);
      Table paimonTable = paimon.table("msi", table);
      assertThat(paimonTable.rowType().asSQLString())
          .isEqualTo(
              "ROW<`id` INT NOT NULL, `s` ROW<`p` INT, `q` STRING>, `items` ARRAY<ROW<`a` INT,"
                  + " `b` STRING>>, `m` MAP<STRING NOT NULL, ROW<`x` INT, `y` BIGINT>>, `extra` STRING>");
      assertThat(paimonRows(paimonTable)).isEqualTo(expected);

      if (!table.equals("pk")) {
        continue;
      }
      // Paimon compacts the files of both schemas into one; both systems read the result
      paimon.compactUnpartitioned("msi", table, 1);
      assertThat(paimonRows(paimon.table("msi", table))).isEqualTo(expected);
      assertThat(basaltRows("msi." + table)).isEqualTo(expected);
    }
  }

  private List<String> basaltRows(String table) {
    List<String> result = new ArrayList<>();
    for (Row row : spark.table(table).collectAsList()) {
      List<String> values = new ArrayList<>();
      for (int i = 0; i < row.size(); i++) {
        values.add(spark(row.get(i)));
      }
      result.add(String.join(",", values));
    }
    result.sort(null);
    return result;
  }

  /** A Spark value as {@link #paimon} renders the same Paimon value. */
  private static String spark(Object value) {
    if (value instanceof Row row) {
      List<String> fields = new ArrayList<>();
      for (int i = 0; i < row.size(); i++) {
        fields.add(spark(row.get(i)));
      }
      return "{" + String.join(",", fields) + "}";
    } else if (value instanceof scala.collection.Seq<?> seq) {
      List<String> elements = new ArrayList<>();
      seq.foreach(element -> elements.add(spark(element)));
      return elements.toString();
    } else if (value instanceof scala.collection.Map<?, ?> map) {
      TreeMap<String, String> entries = new TreeMap<>();
      map.foreach(entry -> entries.put(spark(entry._1()), spark(entry._2())));
      return entries.toString();
    }
    return String.valueOf(value);
  }

  private static List<String> paimonRows(Table table) throws Exception {
    ReadBuilder builder = table.newReadBuilder();
    List<String> result = new ArrayList<>();
    for (Split split : builder.newScan().plan().splits()) {
      try (RecordReader<InternalRow> reader = builder.newRead().createReader(split)) {
        reader.forEachRemaining(row -> result.add(paimon(row, table.rowType(), ",", "")));
      }
    }
    result.sort(null);
    return result;
  }

  private static String paimon(InternalRow row, RowType type, String separator, String wrap) {
    List<String> fields = new ArrayList<>();
    List<DataField> types = type.getFields();
    for (int i = 0; i < types.size(); i++) {
      Object field = InternalRow.createFieldGetter(types.get(i).type(), i).getFieldOrNull(row);
      fields.add(paimon(field, types.get(i).type()));
    }
    String joined = String.join(separator, fields);
    return wrap.isEmpty() ? joined : "{" + joined + "}";
  }

  private static String paimon(Object value, DataType type) {
    if (value == null) {
      return "null";
    } else if (type instanceof RowType row) {
      return paimon((InternalRow) value, row, ",", "{}");
    } else if (type instanceof ArrayType array) {
      return elements((InternalArray) value, array.getElementType()).toString();
    } else if (type instanceof MapType map) {
      InternalMap values = (InternalMap) value;
      List<String> keys = elements(values.keyArray(), map.getKeyType());
      List<String> vals = elements(values.valueArray(), map.getValueType());
      TreeMap<String, String> entries = new TreeMap<>();
      for (int i = 0; i < keys.size(); i++) {
        entries.put(keys.get(i), vals.get(i));
      }
      return entries.toString();
    }
    return value.toString();
  }

  private static List<String> elements(InternalArray array, DataType type) {
    InternalArray.ElementGetter getter = InternalArray.createElementGetter(type);
    List<String> result = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      result.add(paimon(getter.getElementOrNull(array, i), type));
    }
    return result;
  }
}
