package dev.cairn.cli.commands.archive;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.archive.ArchiveFiles;
import dev.cairn.cli.archive.ArchiveMeter;
import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.options.NodeRef;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.Progress;

@Command(
        name = "create",
        description = {
            "Write an archive of the server's provenance graph to FILE: everything (--all), or what groups, nodes,"
                    + " computers and codes start from, with everything the EXPORT traversal rules take along (the"
                    + " inputs of a process, what it created, what a workflow called or returned), and the users,"
                    + " computers, comments and logs they need, and the contents of their files.",
            "The server counts the export first, so an unknown name or a process that has not ended is refused"
                    + " before anything is written; the archive comes as a stream into FILE.partial, renamed to FILE"
                    + " when whole. An existing FILE is kept unless --force.",
            "Example: cairn archive create relax.cairn --group relaxations --no-logs"
        })
final class ArchiveCreate implements Callable<Integer> {

    @Mixin
    Session session;

    @Parameters(paramLabel = "FILE", description = "Where to write the archive (.cairn).")
    Path file;

    @Option(names = "--all", description = "Export everything the installation holds.")
    boolean all;

    @Option(
            names = "--group",
            paramLabel = "GROUP",
            description = "Start from a group, by label or uuid: its nodes, and the group itself (repeatable).")
    List<String> groups = new ArrayList<>();

    @Option(
            names = "--node",
            paramLabel = "NODE",
            converter = NodeRef.Converter.class,
            description = "Start from a node: its PK, UUID or a unique UUID prefix (repeatable).")
    List<NodeRef> nodes = new ArrayList<>();

    @Option(
            names = "--computer",
            paramLabel = "COMPUTER",
            description = "Start from the nodes run on a computer, by label or uuid (repeatable).")
    List<String> computers = new ArrayList<>();

    @Option(
            names = "--code",
            paramLabel = "CODE",
            description = "Start from a code, by label@computer, label or uuid (repeatable).")
    List<String> codes = new ArrayList<>();

    @Option(names = "--no-comments", description = "Leave the nodes' comments out.")
    boolean noComments;

    @Option(names = "--no-logs", description = "Leave the nodes' logs out.")
    boolean noLogs;

    @Option(
            names = "--include-authinfos",
            description = "Include the computers' transport settings per user (authinfos).")
    boolean authinfos;

    @Option(
            names = "--rule",
            paramLabel = "NAME=true|false",
            description = "Switch a traversal rule of the EXPORT rules (repeatable): input_calc_forward,"
                    + " input_work_forward and return_backward are off by default, create_backward,"
                    + " call_calc_backward and call_work_backward on.")
    Map<String, String> rules = Map.of();

    @Option(
            names = {"-n", "--dry-run"},
            description = "Only count what the archive would hold; write nothing.")
    boolean dryRun;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "cairn",
            description = "The archive's format (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(
            names = {"-f", "--force"},
            description = "Overwrite FILE if it exists.")
    boolean force;

    @Override
    public Integer call() throws IOException {
        String path = "/api/v1/archive?" + query();
        Output out = session.output();
        if (dryRun) {
            JsonNode header = session.client().get(path + "&dry_run=true");
            if (out.json()) {
                out.print(header);
            } else {
                out.print(ArchiveHeaders.parts(header.path("counts"), Map.of()));
                out.note("dry run: " + file + " would hold " + ArchiveHeaders.brief(header.path("counts"))
                        + "; nothing was written");
            }
            return ExitCodes.OK;
        }
        Path target = file.toAbsolutePath().normalize();
        if (Files.exists(target) && !force) {
            throw CliException.usage(file + " exists: give --force to overwrite it, or another name");
        }
        if (target.getParent() != null && !Files.isDirectory(target.getParent())) {
            throw CliException.usage("cannot write " + file + ": there is no folder " + target.getParent());
        }
        Path partial = target.resolveSibling(target.getFileName() + ".partial");
        // Ctrl-C ends the JVM: what was written of the archive goes with it, so no .partial is left behind
        Thread cleanUp = new Thread(() -> deleteQuietly(partial));
        Runtime.getRuntime().addShutdownHook(cleanUp);
        try {
            download(path, partial);
            move(partial, target);
        } finally {
            deleteQuietly(partial);
            Runtime.getRuntime().removeShutdownHook(cleanUp);
        }
        ObjectNode header = ArchiveFiles.header(target);
        if (out.json()) {
            header.put("file", target.toString());
            header.put("bytes", Files.size(target));
            out.print(header);
        } else {
            out.line(target.toString());
            out.note(ArchiveHeaders.brief(header.path("counts")) + "; " + Progress.size(Files.size(target)));
        }
        return ExitCodes.OK;
    }

    /** Streams the archive into {@code partial}, with a bar of the rows and objects gone by. */
    private void download(String path, Path partial) throws IOException {
        Output out = session.output();
        try (InputStream in = session.client().stream(path, "application/octet-stream");
                Progress p = out.progress("exporting", 0)) {
            ArchiveMeter meter;
            try (OutputStream to = Files.newOutputStream(partial)) {
                meter = new ArchiveMeter(to, new ArchiveMeter.Listener() {
                    @Override
                    public void total(long rowsAndObjects) {
                        p.total(rowsAndObjects);
                    }

                    @Override
                    public void done(long rowsAndObjects) {
                        p.set(rowsAndObjects);
                    }
                });
                in.transferTo(meter);
                meter.flush();
            } catch (IOException e) {
                throw new CliException(
                        ExitCodes.UNAVAILABLE,
                        "the archive's download broke off: " + e.getMessage(),
                        "try again; `cairn status` shows whether the server is up",
                        e);
            }
            if (meter.cutShort()) {
                throw new CliException(
                        ExitCodes.UNAVAILABLE,
                        "the server ended the archive before its end; nothing was written to " + file,
                        "its log says why; try again",
                        null);
            }
        }
    }

    private String query() {
        boolean named = !groups.isEmpty() || !nodes.isEmpty() || !computers.isEmpty() || !codes.isEmpty();
        if (all == named) {
            throw CliException.usage(
                    all
                            ? "--all exports everything: give it alone, or --group, --node, --computer or --code instead"
                            : "what to export? give --all, or start from --group, --node, --computer or --code (each"
                                    + " repeatable)");
        }
        List<String> q = new ArrayList<>();
        if (all) {
            q.add("all=true");
        }
        groups.forEach(g -> q.add("group=" + CairnClient.param(g)));
        nodes.forEach(n -> q.add("node=" + CairnClient.param(n.text().replaceFirst("^uuid:", ""))));
        computers.forEach(c -> q.add("computer=" + CairnClient.param(c)));
        codes.forEach(c -> q.add("code=" + CairnClient.param(c)));
        if (noComments) {
            q.add("comments=false");
        }
        if (noLogs) {
            q.add("logs=false");
        }
        if (authinfos) {
            q.add("authinfos=true");
        }
        rules.forEach((name, value) -> {
            String v = value.strip().toLowerCase(Locale.ROOT);
            if (!v.equals("true") && !v.equals("false")) {
                throw CliException.usage("--rule " + name + "=" + value + ": give true or false");
            }
            q.add((v.equals("true") ? "enable=" : "disable=") + CairnClient.param(name.strip()));
        });
        q.add("format=" + CairnClient.param(format));
        return String.join("&", q);
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a leftover .partial says what it is; nothing to add to the failure being reported
        }
    }
}
