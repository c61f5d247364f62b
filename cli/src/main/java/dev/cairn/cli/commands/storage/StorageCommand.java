package dev.cairn.cli.commands.storage;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.client.ProgressLines;
import dev.cairn.cli.local.ServerJar;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.Progress;
import dev.cairn.cli.output.TextTable;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.S3Location;
import dev.cairn.storage.objects.ValidationReport;

/** {@code cairn storage info|maintain|validate|backup|restore|index}: the installation's data as a whole. */
@Command(
        name = "storage",
        description = "The installation's data as a whole: its size, maintenance, validation, backups and restore, and"
                + " indexes on hot attributes.",
        subcommands = {
            StorageCommand.Info.class,
            StorageCommand.Maintain.class,
            StorageCommand.Validate.class,
            StorageCommand.Backup.class,
            StorageCommand.Restore.class,
            StorageIndexCommand.class
        })
public final class StorageCommand {

    private static final String NDJSON = "application/x-ndjson";

    @Command(name = "info", description = "Counts of nodes, links, groups and users, and the object store's size.")
    static final class Info implements Runnable {

        @Mixin
        Session session;

        @Option(names = "--detailed", description = "Also count nodes per node type.")
        boolean detailed;

        @Override
        public void run() {
            JsonNode info = session.client().get("/api/v1/storage" + (detailed ? "?detailed=true" : ""));
            Output out = session.output();
            if (out.json()) {
                out.print(info);
                return;
            }
            JsonNode o = info.get("objects");
            TextTable t = TextTable.of("WHAT", "COUNT", "SIZE").alignRight("COUNT", "SIZE");
            t.row("nodes", info.get("nodes").asLong(), "");
            t.row("links", info.get("links").asLong(), "");
            t.row("groups", info.get("groups").asLong(), "");
            t.row("users", info.get("users").asLong(), "");
            t.row(
                    "loose objects",
                    o.get("looseObjects").asLong(),
                    Progress.size(o.get("looseBytes").asLong()));
            t.row(
                    "packed objects",
                    o.get("packedObjects").asLong(),
                    Progress.size(o.get("packedBytes").asLong()));
            t.row(
                    "pack files",
                    o.get("packFiles").asLong(),
                    Progress.size(o.get("packFileBytes").asLong()));
            JsonNode types = info.get("nodeTypes");
            if (types != null && types.isObject()) {
                types.properties()
                        .forEach(e -> t.row("  " + e.getKey(), e.getValue().asLong(), ""));
            }
            out.print(t);
            out.note("object store " + info.get("objectStore").asString() + ", schema version "
                    + info.get("schemaVersion").asString());
        }
    }

    @Command(
            name = "maintain",
            description = {
                "Pack loose objects and remove their loose copies, through the server while it runs.",
                "--full also compacts the pack index, rewrites packs holding deleted bytes and deletes objects no"
                        + " node refers to, in two phases: it marks them for deletion, and a --full run at least an"
                        + " hour later (the server's cairn.store.deletion-grace) deletes those still unreferenced,"
                        + " so a node being stored meanwhile with the same bytes keeps them. The server does it,"
                        + " since only it knows what the graph refers to."
            })
    static final class Maintain implements Runnable {

        @Mixin
        Session session;

        @Option(
                names = "--full",
                description = "Also repack, vacuum the index, and mark unreferenced objects for deletion (deleting"
                        + " those an earlier run marked).")
        boolean full;

        @Option(names = "--dry-run", description = "Say what would be done; change nothing.")
        boolean dryRun;

        @Override
        public void run() {
            ObjectNode body = JsonTrees.object();
            body.put("full", full);
            body.put("dryRun", dryRun);
            Output out = session.output();
            JsonNode report;
            InputStream in = session.client().postStream("/api/v1/storage/maintenance", body, NDJSON);
            try (Progress p = out.progress(dryRun ? "planning" : "maintaining", 0)) {
                report = ProgressLines.follow(
                        session.client(),
                        in,
                        "the maintenance",
                        "each step of a maintenance leaves the store whole; `cairn storage maintain` again goes on",
                        n -> {
                            p.total(n.path("of").asLong());
                            p.set(n.path("index").asLong() - 1);
                            p.label(n.path("step").asString());
                        });
            }
            if (out.json()) {
                out.print(report);
                return;
            }
            report.get("actions").forEach(a -> out.line(a.asString()));
            if (!dryRun) {
                JsonNode after = report.get("after");
                long pending = report.path("pendingDeletion").asLong(0);
                out.note("now " + after.get("looseObjects").asLong() + " loose and "
                        + after.get("packedObjects").asLong() + " packed objects"
                        + (pending > 0 ? ", " + pending + " of them marked for deletion" : ""));
            }
        }
    }

    @Command(
            name = "validate",
            description = {
                "Check every object's hash and the pack index, and that every object the graph refers to exists.",
                "Exits with 1 and lists the faults when there are any. --store checks an object store folder"
                        + " directly, with no server (stop the server that uses it first)."
            })
    static final class Validate implements Callable<Integer> {

        @Mixin
        Session session;

        @Option(
                names = "--store",
                paramLabel = "DIR|S3",
                description = "Validate this object store directly instead of asking the server: a folder, or a"
                        + " bucket as s3://BUCKET/PREFIX/?endpoint=URL&region=NAME (credentials from AWS_ACCESS_KEY_ID"
                        + " and AWS_SECRET_ACCESS_KEY, or the AWS profile).")
        String store;

        @Override
        public Integer call() {
            Output out = session.output();
            ObjectNode result;
            if (store != null) {
                result = offline(store);
            } else {
                result = (ObjectNode) session.client().post("/api/v1/storage/validation", JsonTrees.object());
            }
            ArrayNode faults = (ArrayNode) result.get("faults");
            if (out.json()) {
                out.print(result);
            } else if (faults.isEmpty()) {
                out.line("valid: " + result.get("objectsChecked").asLong() + " objects checked");
            } else {
                TextTable t = TextTable.of("KIND", "OBJECT", "WHERE", "WHAT");
                faults.forEach(f -> t.row(
                        f.get("kind").asString(),
                        f.get("key").isNull() ? "" : f.get("key").asString(),
                        f.get("where").asString(),
                        f.get("what").asString()));
                out.print(t);
                out.note(faults.size() + " faults in "
                        + result.get("objectsChecked").asLong() + " objects");
            }
            return faults.isEmpty() ? ExitCodes.OK : ExitCodes.FAILED;
        }

        private static ObjectNode offline(String store) {
            try (Container c = openOffline(store)) {
                ValidationReport report = c.validate();
                ObjectNode result = JsonTrees.object();
                result.put("objectsChecked", report.objectsChecked());
                result.put("valid", report.isValid());
                ArrayNode faults = result.putArray("faults");
                for (ValidationReport.Problem p : report.problems()) {
                    ObjectNode f = faults.addObject();
                    f.put("kind", "object");
                    f.put("key", p.key() == null ? null : p.key().toString());
                    f.put("where", p.where());
                    f.put("what", p.what());
                }
                return result;
            } catch (IOException e) {
                throw new CliException(ExitCodes.FAILED, "cannot validate " + store + ": " + e.getMessage(), null, e);
            }
        }
    }

    /** Opens a container named by {@code --store}: a folder, or an {@code s3://} location. */
    static Container openOffline(String store) throws IOException {
        if (store.startsWith("s3://")) {
            S3Location at;
            try {
                at = S3Location.parse(store, Path.of(System.getProperty("user.home"), ".cache", "cairn", "s3"));
            } catch (IllegalArgumentException e) {
                throw CliException.usage("--store " + store + ": " + e.getMessage());
            }
            return Container.open(at);
        }
        Path folder = Path.of(store);
        if (!Files.isDirectory(folder)) {
            throw CliException.usage("--store " + store + ": no such folder");
        }
        return Container.open(folder);
    }

    @Command(
            name = "backup",
            description = {
                "Back up the database and the object store into DEST, a folder on the server's host, while the"
                        + " server runs.",
                "Each backup is a folder DEST/backup-<UTC time> and DEST/last links to the newest; files unchanged"
                        + " since the previous backup are hard-linked, so a backup costs what changed."
            })
    static final class Backup implements Callable<Integer> {

        @Mixin
        Session session;

        @Parameters(paramLabel = "DEST", description = "An absolute folder path on the server's host.")
        String destination;

        @Option(names = "--keep", paramLabel = "N", description = "Keep only the newest N backups in DEST.")
        Integer keep;

        @Override
        public Integer call() throws IOException {
            if (keep != null && keep < 1) {
                throw CliException.usage("--keep must be 1 or more: " + keep);
            }
            ObjectNode body = JsonTrees.object();
            body.put("destination", destination);
            if (keep != null) {
                body.put("keep", keep);
            }
            Output out = session.output();
            JsonNode done;
            InputStream in = session.client().postStream("/api/v1/storage/backups", body, NDJSON);
            try (Progress p = out.progress("backing up", 0)) {
                done = ProgressLines.follow(
                        session.client(),
                        in,
                        "the backup",
                        "a backup is written under a temporary name and kept only once whole; back up again",
                        n -> {
                            p.label("backing up: " + n.path("step").asString());
                            p.advance(1);
                            if (session.verbose()) {
                                out.note(n.path("step").asString());
                            }
                        });
            }
            if (out.json()) {
                out.print(done);
            } else {
                out.line(done.get("path").asString());
                out.note(done.get("rows").asLong() + " rows; object store: "
                        + done.get("filesCopied").asLong()
                        + " files copied ("
                        + Progress.size(done.get("bytesCopied").asLong()) + "), "
                        + done.get("filesLinked").asLong() + " linked"
                        + (done.get("pruned").isEmpty()
                                ? ""
                                : "; deleted " + done.get("pruned").size() + " old"));
            }
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "restore",
            description = {
                "Restore a backup into an empty installation (a database with no Cairn rows, an empty object store),"
                        + " then exit; start the server on it afterwards and everything goes on.",
                "The object store is the one the server's settings name: a folder (empty or missing), whose"
                        + " objects are copied in; or a bucket (cairn.store.s3.bucket, .endpoint, .prefix and"
                        + " credentials, as the server has them) with no objects under its prefix, into which"
                        + " the backup's objects are written, whether the backup was made from a folder or"
                        + " from a bucket.",
                "Runs the server jar once (it alone may reach the database): $CAIRN_SERVER_JAR, or"
                        + " <cairn home>/server/cairn-server.jar. The server's settings come from the environment"
                        + " (CAIRN_DATABASE_URL, CAIRN_DATA_DIR, CAIRN_STORE_S3_BUCKET, ...) or from --setting."
            })
    static final class Restore implements Callable<Integer> {

        @Mixin
        Session session;

        @Parameters(paramLabel = "SRC", description = "A backup folder, or a folder of backups (its newest is used).")
        Path source;

        @Option(
                names = "--setting",
                paramLabel = "KEY=VALUE",
                description = "A server setting for the restore, e.g. cairn.database.url=jdbc:postgresql://...")
        Map<String, String> settings = Map.of();

        @Override
        public Integer call() throws IOException, InterruptedException {
            Path src = source.toAbsolutePath().normalize();
            if (!Files.isDirectory(src)) {
                throw CliException.usage("no backup at " + src + ": no such folder");
            }
            List<String> args = new ArrayList<>();
            args.add("--cairn.restore-from=" + src);
            settings.forEach((k, v) -> args.add("--" + k + "=" + v));
            Output out = session.output();
            List<String> command = ServerJar.find(session.env()).command(session.env(), args, false, out::note);
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            Process process = builder.start();
            List<String> log = new ArrayList<>();
            try (BufferedReader lines = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                    Progress p = out.progress("restoring", 0)) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    log.add(line);
                    if (line.contains("restore: ")) {
                        p.advance(1);
                    }
                    if (session.verbose()) {
                        out.note(line);
                    }
                }
            }
            int exit = process.waitFor();
            if (exit != 0) {
                boolean refused = log.stream().anyMatch(l -> l.contains("ConflictException"));
                throw new CliException(refused ? ExitCodes.CONFLICT : ExitCodes.FAILED, failure(log), null);
            }
            String restored = log.stream()
                    .filter(l -> l.contains("restored "))
                    .reduce((a, b) -> b)
                    .map(l -> l.substring(l.indexOf("restored ")))
                    .orElse("restored");
            out.line(restored);
            return ExitCodes.OK;
        }

        /** The line of a failed restore's output that says why. */
        private static String failure(List<String> log) {
            for (int i = log.size() - 1; i >= 0; i--) {
                String line = log.get(i);
                int at = line.indexOf("Exception: ");
                if (at >= 0) {
                    return line.substring(at + "Exception: ".length()).strip();
                }
            }
            return "the restore failed" + (log.isEmpty() ? "" : ": " + log.getLast());
        }
    }
}
