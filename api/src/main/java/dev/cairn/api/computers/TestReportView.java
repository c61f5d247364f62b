package dev.cairn.api.computers;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.cairn.engine.computers.ComputerTestReport;

/** What a computer test found: each check with its result, message and time. */
@Schema(description = "What a computer test found, check by check", example = """
                {"computer": "cluster", "ok": false, "checks": [
                  {"name": "settings", "ok": true, "message": "transport core.ssh to login.cluster.example.org,\
                 scheduler core.slurm, work directory /scratch/alice/cairn", "millis": 0.2},
                  {"name": "connection", "ok": false, "message": "cannot connect to alice@login.cluster.example.org:22:\
                 connection refused", "millis": 12.5}]}""")
record TestReportView(String computer, boolean ok, List<Check> checks) {

    /** One check: settings, connection, whoami, output, workdir or scheduler. */
    @Schema(description = "one check: settings, connection, whoami, output, workdir or scheduler")
    public record Check(
            @Schema(example = "workdir") String name,
            boolean ok,

            @Schema(example = "/scratch/alice/cairn exists and is writable")
            String message,

            @Schema(description = "how long the check took, in milliseconds", example = "3.4")
            double millis) {}

    static TestReportView of(ComputerTestReport report) {
        return new TestReportView(
                report.computer(),
                report.ok(),
                report.checks().stream()
                        .map(c -> new Check(
                                c.name(), c.ok(), c.message(), c.took().toNanos() / 1e6))
                        .toList());
    }
}
