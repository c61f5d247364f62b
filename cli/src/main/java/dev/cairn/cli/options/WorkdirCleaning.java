package dev.cairn.cli.options;

import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.TextTable;

/**
 * The working folders calculation jobs left on their computers, removed through the server (POST
 * /api/v1/processes/clean-workdir) a batch of processes a request, and its answer told: what {@code cairn
 * calcjob cleanworkdir} and {@code cairn node delete --clean-workdir} share.
 */
public final class WorkdirCleaning {

    /** The server's largest batch: the processes of one request. */
    static final int BATCH = 1000;

    private WorkdirCleaning() {}

    /**
     * "2 folders of 3 calculation jobs": the distinct folders of the jobs with {@code outcome} (a job taken from
     * the cache shares its source's), or null when there are none.
     */
    public static String folders(List<JsonNode> jobs, String outcome) {
        List<JsonNode> these = jobs.stream()
                .filter(j -> outcome.equals(j.path("outcome").asString()))
                .toList();
        if (these.isEmpty()) {
            return null;
        }
        long folders = these.stream()
                .map(j ->
                        j.path("computer").asString("") + "\0" + j.path("path").asString(""))
                .distinct()
                .count();
        return folders + " folder" + (folders == 1 ? "" : "s") + " of " + these.size() + " calculation job"
                + (these.size() == 1 ? "" : "s");
    }

    /** The server's outcome for each job of {@code processes}, a batch a request. */
    public static List<JsonNode> clean(CairnClient client, List<String> processes, boolean dryRun) {
        List<JsonNode> jobs = new ArrayList<>();
        for (int from = 0; from < processes.size(); from += BATCH) {
            ObjectNode body = JsonTrees.object();
            ArrayNode batch = body.putArray("processes");
            processes.subList(from, Math.min(from + BATCH, processes.size())).forEach(batch::add);
            JsonNode report = client.post("/api/v1/processes/clean-workdir?dry_run=" + dryRun, body);
            report.path("jobs").forEach(jobs::add);
        }
        return jobs;
    }

    /** How many of the jobs' folders could not be removed. */
    public static long failed(List<JsonNode> jobs) {
        return jobs.stream()
                .filter(j -> "failed".equals(j.path("outcome").asString()))
                .count();
    }

    /** The jobs' outcomes: a table, or with --json the server's answers. */
    public static void print(List<JsonNode> jobs, Output out) {
        if (out.json()) {
            ArrayNode array = JsonTrees.MAPPER.createArrayNode();
            jobs.forEach(array::add);
            out.print(array);
            return;
        }
        if (jobs.isEmpty()) {
            return;
        }
        TextTable table = TextTable.of("JOB", "COMPUTER", "OUTCOME", "FOLDER OR WHY");
        for (JsonNode job : jobs) {
            String outcome = job.path("outcome").asString();
            boolean why = outcome.equals("skipped") || outcome.equals("failed");
            table.row(
                    job.path("process").asString(),
                    job.path("computer").asString(""),
                    outcome,
                    why ? job.path("detail").asString("") : job.path("path").asString(""));
        }
        out.print(table);
    }
}
