package dev.cairn.engine.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class that runs after the module's other integration tests, one class at a time, in a JVM of its own
 * (the failsafe execution {@value #TAG} in engine/pom.xml; the others run in two JVMs at once). It uses what
 * the machine has one of (it stops or reconfigures the local broker, or starts and stops the one-node SLURM
 * cluster of {@link SlurmCluster}, a fixed folder and fixed ports), or it reads what the others left
 * ({@code ProcessStateCoverageIT}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(RunsAlone.TAG)
public @interface RunsAlone {

    /** The JUnit tag that selects these classes. */
    String TAG = "runs-alone";
}
