package dev.cairn.engine.computers;

import java.time.Duration;

/**
 * One check of a computer test.
 *
 * @param name    what was checked: {@code settings}, {@code connection}, {@code whoami},
 *                {@code output}, {@code workdir}, {@code scheduler}
 * @param ok      whether it passed
 * @param message what was found, or why it failed
 * @param took    how long it took
 */
public record CheckResult(String name, boolean ok, String message, Duration took) {}
