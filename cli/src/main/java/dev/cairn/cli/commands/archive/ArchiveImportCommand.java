package dev.cairn.cli.commands.archive;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.ProgressLines;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.Progress;

@Command(
        name = "import",
        description = {
            "Import an archive file into the server's installation (role admin), all or nothing: a file that is"
                    + " truncated, corrupt or breaks the graph's rules is refused naming the part and row (exit code"
                    + " 2), and nothing of it is imported. What the installation has already (same uuid) is not"
                    + " added again, so importing a file twice adds nothing the second time. The new nodes go into a"
                    + " group of type core.import.",
            "Example: cairn archive import export.cairn --group from-the-lab"
        })
final class ArchiveImportCommand implements Runnable {

    /** What a comment already here becomes when the archive has it too. */
    enum CommentMerge {
        leave,
        newest,
        overwrite
    }

    @Mixin
    Session session;

    @Parameters(paramLabel = "FILE", description = "The archive file to import.")
    Path file;

    @Option(
            names = "--merge-extras",
            paramLabel = "MODE",
            defaultValue = "kcl",
            description = "How the extras of nodes already here merge, as AiiDA's three letters: keys only here"
                    + " k(eep)/n(one), keys only in the archive c(reate)/n(one), keys in both l(eave), u(pdate) or"
                    + " d(elete) (default: ${DEFAULT-VALUE}).")
    String mergeExtras;

    @Option(
            names = "--merge-comments",
            paramLabel = "MODE",
            defaultValue = "leave",
            description = "What a comment already here becomes when the archive has it too: ${COMPLETION-CANDIDATES}"
                    + " (default: ${DEFAULT-VALUE}).")
    CommentMerge mergeComments;

    @Option(
            names = "--group",
            paramLabel = "LABEL",
            description = "The label of the group the new nodes go into (default: import-<UTC time>).")
    String group;

    @Override
    public void run() {
        // the letters are checked where they are used (ImportOptions, on the server), whose refusal is the message
        String extras = CairnClient.param(mergeExtras.toLowerCase(Locale.ROOT));
        String path = "/api/v1/archive?merge_extras=" + extras + "&merge_comments=" + mergeComments.name()
                + (group == null ? "" : "&group_label=" + CairnClient.param(group));
        JsonNode answer = importWithProgress(path);
        Output out = session.output();
        if (out.json()) {
            out.print(answer);
            return;
        }
        JsonNode added = answer.path("added");
        Map<String, JsonNode> columns = new LinkedHashMap<>();
        columns.put("ADDED", added);
        out.print(ArchiveHeaders.parts(answer.path("header").path("counts"), columns));
        long total = 0;
        for (JsonNode n : added) {
            total += n.asLong();
        }
        long existing = answer.path("existing").asLong();
        if (total == 0) {
            out.note("imported " + file + ": nothing new; " + existing + " nodes were here already");
        } else {
            out.note("imported " + file + ": " + added.path("nodes").asLong() + " new nodes"
                    + (answer.hasNonNull("group")
                            ? " into group '" + answer.get("group").asString() + "' (type core.import)"
                            : "")
                    + "; " + existing + " nodes were here already");
        }
    }

    /**
     * Sends the file with a bar of the bytes sent, then follows the server's lines of progress (the import
     * reads the file as it arrives, and goes on after its last byte: links, hashes, the commit) to the last
     * line, what was added or why nothing was.
     */
    private JsonNode importWithProgress(String path) {
        Output out = session.output();
        InputStream answer;
        try (Progress sending = out.byteProgress("sending", ArchiveInspect.sizeOf(file))) {
            answer = session.client().uploadForLines(path, file, sending::set);
        }
        String hint = "the server imports all or nothing; `cairn archive import` again adds what is missing";
        try (Progress importing = out.progress("importing", 0)) {
            return ProgressLines.follow(session.client(), answer, "the import", hint, progress -> {
                if (progress.has("step")) {
                    importing.label("importing: " + progress.get("step").asString());
                    importing.advance(1);
                } else if (progress.has("part")) {
                    importing.label("importing " + progress.get("part").asString() + " "
                            + progress.path("done").asLong() + "/"
                            + progress.path("total").asLong());
                }
            });
        }
    }
}
