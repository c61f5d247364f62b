package dev.cairn.e2e;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A test class that runs beside the end-to-end tests that run one after another, one class at a time in a
 * second lane. The many-hosts tests run there; so do classes that share nothing with the others but the
 * CPUs (a database, a vhost, a data directory and a port of their own), as many as make the two lanes take
 * about as long. A class goes here for its length, never to dodge another: two lanes on two cores is what
 * the suite is timed for, so this adds no concurrency, it moves work from the longer lane to the shorter.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(SecondLane.LANE)
public @interface SecondLane {

    /** The lock every class of the second lane holds while it runs. */
    String LANE = "dev.cairn.e2e.second-lane";
}
