package dev.cairn.engine.computers;

import java.util.List;

/**
 * What a computer test found: its checks in the order they ran, which stop after the settings
 * or the connection fails (nothing else can run then).
 *
 * @param computer the computer's label
 * @param ok       whether every check passed
 */
public record ComputerTestReport(String computer, boolean ok, List<CheckResult> checks) {

    public ComputerTestReport {
        checks = List.copyOf(checks);
    }

    public ComputerTestReport(String computer, List<CheckResult> checks) {
        this(computer, checks.stream().allMatch(CheckResult::ok), checks);
    }
}
