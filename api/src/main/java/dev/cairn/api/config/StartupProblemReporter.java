package dev.cairn.api.config;

import org.springframework.boot.SpringBootExceptionReporter;
import org.springframework.core.Ordered;

/**
 * Reports a failed start that is a {@link StartupProblem} as its one line on standard error, before Spring's
 * own reporters log the exception with its stack (registered in {@code META-INF/spring.factories}).
 */
public final class StartupProblemReporter implements SpringBootExceptionReporter, Ordered {

    @Override
    public boolean reportException(Throwable failure) {
        return StartupProblem.in(failure)
                .map(problem -> {
                    System.err.println("cairn: " + problem.getMessage());
                    return true;
                })
                .orElse(false);
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
