package dev.cairn.e2e.hosts;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A test class on hosts of its own. It runs beside the other end-to-end tests, which run one after
 * another on the machine's own network, since it shares nothing with them but the CPUs; and one such
 * class at a time, since each builds its hosts from one subnet and times its faults.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(ManyHostsTest.HOSTS)
public @interface ManyHostsTest {

    /** The lock every many-hosts test class holds while it runs. */
    String HOSTS = "dev.cairn.e2e.hosts";
}
