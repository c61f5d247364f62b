package dev.cairn.jmh.archive;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.logging.ConsoleHandler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

import dev.cairn.jmh.graph.GraphBench;
import dev.cairn.storage.archive.ArchiveExport;
import dev.cairn.storage.archive.ArchiveHeader;
import dev.cairn.storage.archive.ArchiveImport;
import dev.cairn.storage.archive.ArchivePart;
import dev.cairn.storage.archive.ArchiveProgress;
import dev.cairn.storage.archive.ArchiveReader;
import dev.cairn.storage.archive.CairnArchiveReader;
import dev.cairn.storage.archive.CairnArchiveWriter;
import dev.cairn.storage.archive.ExportRequest;
import dev.cairn.storage.archive.ImportOptions;
import dev.cairn.storage.archive.ImportResult;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.db.Databases;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;

/**
 * Cairn's side of {@code jmh/compare-archive.sh}: loads the shared workload into an installation (a fresh
 * database and object store), then times each phase and prints {@code phase seconds nodes links objects
 * old_gen_peak_mb}, one line each:
 *
 * <ul>
 *   <li>{@code load}: not compared; COPY and one pack batch (see {@link ArchiveGraphLoader})
 *   <li>{@code export}: everything, to a {@code .cairn} file (the counts are the archive header's)
 *   <li>{@code import}: that file into another empty installation (the counts are the installation's)
 *   <li>{@code reimport}: the same file into that installation again: nothing new
 *   <li>{@code import_aiida}: AiiDA's archive of the same graph ({@code --aiida-archive}) into a third empty
 *       installation, through {@value #AIIDA_READER}; a build without it prints {@code import_aiida n/a}
 * </ul>
 *
 * <pre>java -Xmx256m -cp benchmarks.jar dev.cairn.jmh.archive.ArchiveComparison WORKLOAD_DIR WORK_DIR ADMIN_JDBC_URL
 *     [--aiida-archive FILE] [--phases export,import,reimport,import_aiida] [--keep]</pre>
 *
 * Before each phase: a GC and a {@code sync}. Files read back after the load and after each import must
 * equal the workload's bytes, and the counts must be the workload's, or the run fails. The databases
 * ({@code cairn_compare_archive_*}, made with ADMIN_JDBC_URL's user) and WORK_DIR's installations and
 * archive are removed at the end unless {@code --keep}.
 */
public final class ArchiveComparison {

    /** AiiDA's archive reader, looked up at run time so that this class builds and runs without it. */
    static final String AIIDA_READER = "dev.cairn.storage.archive.aiida.AiidaArchiveReader";

    static final List<String> PHASES = List.of("export", "import", "reimport", "import_aiida");

    private static final String DB_PREFIX = "cairn_compare_archive_";

    /** The import's steps (DEBUG on System.Logger, FINE in java.util.logging) go to the log, for the notes. */
    private static final Logger IMPORT_STEPS = Logger.getLogger(ArchiveImport.class.getName());

    private final ArchiveWorkload workload;
    private final Path work;
    private final String admin;
    private final List<Installation> opened = new ArrayList<>();
    private ArchiveGraphLoader.Loaded loaded;
    private UUID sampleUuid;
    /** The archive this run wrote (not one a --from-archive run was given). */
    private Path exported;

    private ArchiveComparison(ArchiveWorkload workload, Path work, String admin) {
        this.workload = workload;
        this.work = work;
        this.admin = admin;
    }

    public static void main(String[] args) throws Exception {
        List<String> positional = new ArrayList<>();
        Set<String> phases = new LinkedHashSet<>(PHASES);
        Path aiidaArchive = null;
        Path fromArchive = null;
        boolean keep = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--aiida-archive" -> aiidaArchive = Path.of(args[++i]);
                case "--phases" -> phases = new LinkedHashSet<>(Arrays.asList(args[++i].split(",")));
                case "--from-archive" -> fromArchive = Path.of(args[++i]);
                case "--keep" -> keep = true;
                default -> positional.add(args[i]);
            }
        }
        if (positional.size() != 3 || !PHASES.containsAll(phases)) {
            System.err.println("usage: ArchiveComparison WORKLOAD_DIR WORK_DIR ADMIN_JDBC_URL [--aiida-archive FILE]"
                    + " [--phases " + String.join(",", PHASES) + "] [--from-archive FILE] [--keep]");
            System.exit(2);
        }
        ConsoleHandler toLog = new ConsoleHandler();
        toLog.setLevel(Level.FINE);
        IMPORT_STEPS.setLevel(Level.FINE);
        IMPORT_STEPS.addHandler(toLog);
        ArchiveComparison run = new ArchiveComparison(
                ArchiveWorkload.open(Path.of(positional.get(0))), Path.of(positional.get(1)), positional.get(2));
        try {
            if (fromArchive == null) {
                run.run(phases, aiidaArchive);
            } else {
                run.importOnly(phases, fromArchive);
            }
        } finally {
            run.close(keep);
        }
    }

    private void run(Set<String> phases, Path aiidaArchive) throws Exception {
        Files.createDirectories(work);
        Installation source = open("src");
        timedPhase("load", () -> {
            try (Connection c = source.database().connection()) {
                loaded = new ArchiveGraphLoader(workload).load(c, source.container());
                return new Counts(loaded.nodes(), loaded.links(), loaded.objects());
            }
        });
        sampleUuid = source.graph().load(loaded.sampleCalc()).uuid();
        checkSample(source, "after the load");
        Path archive = work.resolve("graph.cairn");
        if (phases.contains("export")) {
            exported = archive;
            timedPhase("export", () -> {
                ArchiveHeader header;
                try (CairnArchiveWriter out = CairnArchiveWriter.toFile(archive)) {
                    header = new ArchiveExport(source.database(), source.container(), "cairn compare-archive")
                            .export(ExportRequest.ofEverything(), out, ArchiveProgress.NONE);
                }
                return new Counts(
                        header.count(ArchivePart.NODES),
                        header.count(ArchivePart.LINKS),
                        header.count(ArchivePart.OBJECTS));
            });
            System.err.printf("export: the archive has %.1f MB%n", Files.size(archive) / 1e6);
        }
        source.close();
        imports(phases, archive);
        if (phases.contains("import_aiida")) {
            importAiida(aiidaArchive);
        }
    }

    /** Imports (and imports again) an archive a run kept, without loading and exporting: to profile the import. */
    private void importOnly(Set<String> phases, Path archive) throws Exception {
        Files.createDirectories(work);
        imports(phases, archive);
    }

    private void imports(Set<String> phases, Path archive) throws Exception {
        if (phases.contains("import") || phases.contains("reimport")) {
            Installation target = open("dst");
            if (phases.contains("import")) {
                timedPhase("import", () -> importInto(target, CairnArchiveReader.open(archive), false));
                if (loaded != null) {
                    checkSample(target, "after the import");
                }
            }
            if (phases.contains("reimport")) {
                timedPhase("reimport", () -> importInto(target, CairnArchiveReader.open(archive), true));
            }
            target.close();
        }
    }

    private void importAiida(Path aiidaArchive) throws Exception {
        Class<?> reader;
        try {
            reader = Class.forName(AIIDA_READER);
        } catch (ClassNotFoundException e) {
            System.out.println("import_aiida n/a (no AiiDA reader in this build)");
            return;
        }
        if (aiidaArchive == null) {
            System.out.println("import_aiida n/a (no --aiida-archive given)");
            return;
        }
        Installation target = open("from_aiida");
        timedPhase("import_aiida", () -> importInto(target, openAiida(reader, aiidaArchive), false));
        target.close();
    }

    /** {@code AiidaArchiveReader.open(Path)}, its own exceptions unwrapped. */
    private static ArchiveReader openAiida(Class<?> reader, Path file) throws Exception {
        try {
            return (ArchiveReader) reader.getMethod("open", Path.class).invoke(null, file);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private Counts importInto(Installation target, ArchiveReader opened, boolean again) throws Exception {
        ImportResult result;
        try (ArchiveReader reader = opened) {
            result = new ArchiveImport(
                            target.database(),
                            target.container(),
                            target.graph().userId())
                    .importFrom(reader, ImportOptions.defaults(), ArchiveProgress.NONE);
        }
        if (again
                && result.added(ArchivePart.NODES) + result.added(ArchivePart.LINKS) + result.added(ArchivePart.OBJECTS)
                        > 0) {
            throw new IllegalStateException("importing the archive again added something: " + result.added());
        }
        return target.counts();
    }

    /** The sample calc's file, read back through the graph, is the workload's bytes. */
    private void checkSample(Installation installation, String when) {
        Node calc = installation.graph().load(sampleUuid);
        byte[] read = installation.graph().readFile(calc, loaded.sampleName());
        if (!Arrays.equals(read, loaded.sampleContent())) {
            throw new IllegalStateException("the file " + loaded.sampleName() + " of calc " + sampleUuid + " " + when
                    + " is not the workload's (" + read.length + " bytes, expected " + loaded.sampleContent().length
                    + ")");
        }
    }

    private Installation open(String name) throws Exception {
        String url = GraphBench.freshDatabase(admin, DB_PREFIX + name);
        Path objects = work.resolve("cairn-" + name);
        deleteTree(objects);
        Database database = Database.open(DatabaseConfig.of(url).withPoolSize(2));
        Container container = Container.init(objects, ContainerConfig.defaults());
        long user;
        try (Connection c = database.connection();
                Statement s = c.createStatement()) {
            String email = name.equals("src") ? "bench@cairn.dev" : "importer-" + name + "@cairn.dev";
            s.execute("INSERT INTO app_user (email) VALUES ('" + email + "')");
            try (ResultSet r = s.executeQuery("SELECT id FROM app_user WHERE email = '" + email + "'")) {
                r.next();
                user = r.getLong(1);
            }
        }
        Installation installation =
                new Installation(name, database, container, new GraphStore(database, container, user));
        opened.add(installation);
        return installation;
    }

    /** What one phase found: the archive's counts (export) or the installation's (the rest). */
    record Counts(long nodes, long links, long objects) {}

    private interface Phase {
        Counts run() throws Exception;
    }

    private void timedPhase(String phase, Phase body) throws Exception {
        System.gc();
        new ProcessBuilder("sync").inheritIO().start().waitFor();
        // what stays alive: the old generation's peak (the young one fills up between collections whatever runs)
        List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP)
                .filter(p -> p.getName().contains("Old") || p.getName().contains("Tenured"))
                .toList();
        heap.forEach(MemoryPoolMXBean::resetPeakUsage);
        long gcBefore = gcMillis();
        long start = System.nanoTime();
        Counts counts = body.run();
        double seconds = (System.nanoTime() - start) / 1e9;
        long peak = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        long gc = gcMillis() - gcBefore;
        check(phase, counts);
        System.out.printf(
                "%s %.4f %d %d %d %d%n", phase, seconds, counts.nodes(), counts.links(), counts.objects(), peak >> 20);
        System.out.flush();
        System.err.printf(
                "%s: %.2f s, %d nodes (%.0f nodes/s), %d links, %d objects; old generation peak %d MB (heap at most %d MB),"
                        + " GC %.2f s%n",
                phase,
                seconds,
                counts.nodes(),
                counts.nodes() / seconds,
                counts.links(),
                counts.objects(),
                peak >> 20,
                Runtime.getRuntime().maxMemory() >> 20,
                gc / 1e3);
    }

    /** Every phase's counts are the workload's: the archive or the installation holds the whole graph. */
    private void check(String phase, Counts counts) {
        Counts expected =
                new Counts(workload.expected("nodes"), workload.expected("links"), workload.expected("objects"));
        if (!counts.equals(expected)) {
            throw new IllegalStateException(phase + " found " + counts + ", the workload holds " + expected);
        }
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(g -> Math.max(0, g.getCollectionTime()))
                .sum();
    }

    private void close(boolean keep) throws Exception {
        for (Installation i : opened) {
            i.close();
        }
        if (!keep) {
            for (Installation i : opened) {
                try (Connection c = DriverManager.getConnection(admin)) {
                    Databases.drop(c, DB_PREFIX + i.name());
                }
                deleteTree(work.resolve("cairn-" + i.name()));
            }
            if (exported != null) {
                Files.deleteIfExists(exported);
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }

    /** One installation: a database and an object store, and the graph over both as one user. */
    private static final class Installation {
        private final String name;
        private final Database database;
        private final Container container;
        private final GraphStore graph;
        private boolean closed;

        Installation(String name, Database database, Container container, GraphStore graph) {
            this.name = name;
            this.database = database;
            this.container = container;
            this.graph = graph;
        }

        String name() {
            return name;
        }

        Database database() {
            return database;
        }

        Container container() {
            return container;
        }

        GraphStore graph() {
            return graph;
        }

        Counts counts() throws Exception {
            try (Connection c = database.connection();
                    Statement s = c.createStatement();
                    ResultSet r = s.executeQuery("SELECT (SELECT count(*) FROM node), (SELECT count(*) FROM link)")) {
                r.next();
                var stats = container.stats();
                return new Counts(r.getLong(1), r.getLong(2), stats.packedObjects() + stats.looseObjects());
            }
        }

        void close() throws IOException {
            if (!closed) {
                closed = true;
                container.close();
                database.close();
            }
        }
    }
}
