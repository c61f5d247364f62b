package dev.cairn.storage.objects;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The object store's package rule (docs/architecture.md) that the compiler cannot see. */
@AnalyzeClasses(packages = "dev.cairn.storage.objects", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    /**
     * The object store is a library by itself: plain Java, sqlite-jdbc and zstd, nothing of Cairn; the AWS
     * SDK only in {@link S3Bucket}, so a container in a folder never loads it (the SDK is optional).
     */
    @ArchTest
    static final ArchRule objectsStandAlone = classes()
            .that()
            .resideInAPackage("dev.cairn.storage.objects..")
            .and()
            .doNotHaveSimpleName("S3Bucket")
            .should()
            .onlyDependOnClassesThat()
            .resideInAnyPackage(
                    "dev.cairn.storage.objects..", "java..", "javax..", "org.sqlite..", "com.github.luben.zstd..");

    @ArchTest
    static final ArchRule onlyTheBucketSpeaksS3 = classes()
            .that()
            .resideInAPackage("dev.cairn.storage.objects..")
            .and()
            .doNotHaveSimpleName("S3Bucket")
            .should()
            .onlyDependOnClassesThat()
            .resideOutsideOfPackage("software.amazon..");
}
