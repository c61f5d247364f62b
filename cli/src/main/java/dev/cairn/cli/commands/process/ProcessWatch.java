package dev.cairn.cli.commands.process;

import java.io.IOException;
import java.io.InputStream;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.client.ServerEvents;
import dev.cairn.cli.options.NodeRef;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.ProcessLines;

/**
 * {@code process watch [REF]}: state changes as the server's event stream brings them, one line each,
 * until Ctrl-C, or until the process named ends.
 */
@Command(
        mixinStandardHelpOptions = true,
        name = "watch",
        description = {
            "Follow state changes as they happen: of every process, or of one and every process it calls.",
            "With REF it ends when that process ends (exit code 0); without, at Ctrl-C (130). With --json,"
                    + " one JSON event per line.",
            "A calculation job's move in its batch system, where the process stays waiting, prints as"
                    + " 'waiting (scheduler: queued -> running)'."
        })
final class ProcessWatch implements Callable<Integer> {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    @Mixin
    Session session;

    @Parameters(
            paramLabel = "REF",
            arity = "0..1",
            converter = NodeRef.Converter.class,
            description = "The process to follow with all it calls (PK, uuid or prefix); none: every process.")
    NodeRef ref;

    @Override
    public Integer call() {
        Output out = session.output();
        // Ctrl-C: the shell's prompt on a line of its own, not after the ^C the terminal echoed
        Thread endLine = new Thread(out::endLine);
        Runtime.getRuntime().addShutdownHook(endLine);
        if (ref == null) {
            ServerEvents events = new ServerEvents(session.client(), "");
            InputStream stream = events.open();
            out.note("watching every process; Ctrl-C ends");
            events.follow(stream, event -> {
                print(event, out);
                return true;
            });
        } else {
            follow(session.client(), ref.resolve(session.client()), false, out);
        }
        Runtime.getRuntime().removeShutdownHook(endLine);
        return ExitCodes.OK;
    }

    /**
     * Prints the changes of the process {@code uuid} and its call tree until it ends, those since it
     * started too if {@code fromStart}; the process as it ended.
     */
    static JsonNode follow(CairnClient client, String uuid, boolean fromStart, Output out) {
        // from its start (a process just submitted may have ended already): every kept change of its tree first
        ServerEvents events = new ServerEvents(client, "tree=" + CairnClient.param(uuid), fromStart ? "0" : null);
        // opened before the look, so that an end between the two is not missed
        InputStream stream = events.open();
        JsonNode process = client.get(ProcessEndpoint.PATH + "/" + CairnClient.segment(uuid))
                .path("process");
        String full = JsonTrees.text(process, "uuid", uuid);
        if (!fromStart && ProcessLines.ended(process)) {
            try {
                stream.close();
            } catch (IOException e) {
                // nothing was read from it
            }
            out.note(ProcessLines.name(process) + " has ended: " + ProcessLines.state(process, out.style()));
            return process;
        }
        out.note("watching " + ProcessLines.name(process) + " and the processes it calls; Ctrl-C stops watching"
                + " (the process goes on)");
        events.follow(stream, event -> {
            print(event, out);
            return !(full.equals(JsonTrees.text(event, "process", ""))
                    && ProcessLines.ENDED.contains(JsonTrees.text(event, "to", "")));
        });
        return client.get(ProcessEndpoint.PATH + "/" + CairnClient.segment(full))
                .path("process");
    }

    /**
     * One event: "15:13:01  0190c1a2  arithmetic.add  created -> finished [0]", or its JSON with --json;
     * a job's move in its batch system "15:13:01  0190c1a2  core.shell  waiting (scheduler: queued -> running)".
     */
    static void print(JsonNode event, Output out) {
        if (!event.has("process")) {
            return;
        }
        if (out.json()) {
            out.line(JsonTrees.compact(event));
            return;
        }
        JsonNode exit = event.get("exit_status");
        out.line(clock(JsonTrees.text(event, "time", "")) + "  "
                + ProcessLines.shortId(JsonTrees.text(event, "process", ""))
                + "  " + JsonTrees.text(event, "entry_point", "") + "  " + move(event, out)
                + (exit == null || exit.isNull() ? "" : " [" + exit.asString() + "]"));
    }

    /**
     * "created -> finished"; for a job's move in its batch system, where the process stays waiting,
     * "waiting (scheduler: queued -> running)", or "waiting (scheduler: running)" for the first state seen.
     */
    private static String move(JsonNode event, Output out) {
        String to = out.style().state(JsonTrees.text(event, "to", "?"));
        JsonNode scheduler = event.get("scheduler");
        if (scheduler == null || scheduler.isNull()) {
            return JsonTrees.text(event, "from", "?") + " -> " + to;
        }
        String from = JsonTrees.text(scheduler, "from", null);
        return to + " (scheduler: " + (from == null ? "" : from + " -> ") + JsonTrees.text(scheduler, "to", "?") + ")";
    }

    private static String clock(String iso) {
        try {
            return OffsetDateTime.parse(iso)
                    .atZoneSameInstant(ZoneId.systemDefault())
                    .format(CLOCK);
        } catch (DateTimeParseException e) {
            return iso;
        }
    }
}
