package io.basalt.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/** spark-common is the engine: it may use Spark's data model but none of its SQL planner. */
class EngineDependencyRulesTest {

  @Test
  void engineDoesNotDependOnSparkSqlPlannerOrConnectorApi() {
    JavaClasses engine =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.basalt");
    ArchRule rule =
        noClasses()
            .that()
            .resideInAPackage("io.basalt..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "org.apache.spark.sql.connector..",
                "org.apache.spark.sql.catalyst.plans..",
                "org.apache.spark.sql.catalyst.analysis..",
                "org.apache.spark.sql.catalyst.optimizer..",
                "org.apache.spark.sql.execution..")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("org.apache.spark.sql.SparkSession")
            .because("spark-common never imports connector or planner code (DESIGN.md section 1)");
    // the engine must exist on the class path, or the rule would pass vacuously
    org.assertj.core.api.Assertions.assertThat(engine.contain("io.basalt.table.FileStoreTable"))
        .isTrue();
    rule.check(engine);
  }
}
