package dev.cairn.e2e.hosts;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.cairn.e2e.SecondLane;

/**
 * A test class on hosts of its own. It runs in the {@link SecondLane}, beside the other end-to-end tests,
 * which run one after another on the machine's own network, since it shares nothing with them but the
 * CPUs; and one class of the lane at a time, since each builds its hosts from one subnet and times its
 * faults.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SecondLane
public @interface ManyHostsTest {}
