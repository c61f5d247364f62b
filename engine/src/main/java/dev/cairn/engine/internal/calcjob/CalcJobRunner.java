package dev.cairn.engine.internal.calcjob;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import dev.cairn.engine.process.CalcInfo;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.JobFolder;
import dev.cairn.engine.process.JobOptions;
import dev.cairn.engine.process.Outputs;
import dev.cairn.engine.process.ProcessInputs;
import dev.cairn.engine.scheduler.JobTemplate;
import dev.cairn.engine.scheduler.Scheduler;
import dev.cairn.engine.scheduler.SchedulerException;
import dev.cairn.engine.transport.Transport;
import dev.cairn.engine.transport.TransportException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.Code;
import dev.cairn.storage.graph.FolderData;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.PortableCode;
import dev.cairn.storage.graph.RemoteData;
import dev.cairn.storage.graph.computers.Computer;

/**
 * The stages of a calculation job, one durable step each: {@code submit} (prepare the
 * input files and keep them on the job's node, upload them to a fresh work directory,
 * submit through the scheduler unless an earlier attempt's job is queued, running or ran ({@link EarlierSubmission}), and
 * wait); {@code retrieve} (once the job poller saw the job done: bring back the listed
 * files as the {@code retrieved} folder and parse them into outputs and an exit code). A
 * transport or scheduler failure in either is thrown as a {@link JobFailures.Failure}, to be
 * tried again later.
 */
public final class CalcJobRunner {

    /**
     * A submitted job, to be watched by the job poller, and the folder it runs in (the output
     * remote_folder); {@code report} says what an earlier attempt had left when the step was tried again.
     */
    public record Submitted(long computerId, String jobId, RemoteData remoteFolder, Optional<String> report) {}

    /**
     * What a finished job left: the parser's outputs with {@code retrieved} and the exit code,
     * and the local folder they were read from, to delete once the outputs are stored.
     */
    public record Retrieved(Outputs outputs, Path scratch) {}

    /**
     * A job prepared in a local folder: its input files and its submit script {@link Scheduler#SUBMIT_SCRIPT},
     * as they would be uploaded to {@code workdir}.
     */
    public record Prepared(Path folder, String workdir, String jobName, String script, List<String> retrieveList) {}

    private final Computers computers;
    private final GraphStore graph;
    private final ComputerAccess access;

    public CalcJobRunner(Computers computers, GraphStore graph, ComputerAccess access) {
        this.computers = computers;
        this.graph = graph;
        this.access = access;
    }

    /**
     * Writes the job's files and submit script into {@code folder}, with the files it copies from
     * nodes and a portable code's files; nothing leaves this machine, nothing is stored.
     */
    public Prepared prepare(CalcJobDefinition job, CalcJobNode node, ProcessInputs inputs, Path folder)
            throws Exception {
        JobFolder files = new JobFolder(folder);
        Prepared prepared = writeJobFiles(job, node, inputs, files);
        copyFromNodes(files);
        copyCode(inputs, folder);
        return prepared;
    }

    /** The preparer's files and the submit script, written into {@code folder}: what the job's node keeps. */
    private Prepared writeJobFiles(CalcJobDefinition job, CalcJobNode node, ProcessInputs inputs, JobFolder folder)
            throws Exception {
        Code code = inputs.get(CalcJobDefinition.CODE);
        Computer computer = computerOf(node);
        ComputerSettings settings = computers.settings(computer.id());
        CalcInfo info = job.preparer().prepare(inputs, folder);
        JobOptions options = JobOptions.fromAttributes(node.attributes());
        String uuid = node.uuid().toString();
        String workdir = workdirOf(settings.workdir(), uuid);
        String jobName = "cairn-" + uuid;
        JobTemplate template = JobScripts.template(jobName, workdir, code, settings, info, options);
        String script = ComputerAccess.scheduler(computer).submitScript(template);
        Files.writeString(folder.root().resolve(Scheduler.SUBMIT_SCRIPT), script);
        List<String> retrieve = new ArrayList<>(info.retrieveList());
        options.additionalRetrieveList().stream()
                .filter(r -> !retrieve.contains(r))
                .forEach(retrieve::add);
        return new Prepared(folder.root(), workdir, jobName, script, List.copyOf(retrieve));
    }

    /**
     * {@code <workdir>/<xx>/<yy>/<uuid>}, xx and yy the uuid's last four hex digits. Node uuids are
     * version 7, which begin with the time: their first digits, AiiDA's shards, would put months of
     * jobs into one directory. The last ones are random.
     */
    static String workdirOf(String computerWorkdir, String uuid) {
        int n = uuid.length();
        return computerWorkdir.replaceAll("/+$", "") + "/" + uuid.substring(n - 4, n - 2) + "/" + uuid.substring(n - 2)
                + "/" + uuid;
    }

    /** Submits the job of {@code node} (prepared, uploaded to a fresh work directory) in the step's transaction. */
    public Submitted submit(Connection c, CalcJobDefinition job, CalcJobNode node, ProcessInputs inputs)
            throws Exception {
        Computer computer = computerOf(node);
        ComputerSettings settings = computers.settings(computer.id());
        Path sandbox = Files.createTempDirectory("cairn-job-");
        try {
            JobFolder files = new JobFolder(sandbox);
            Prepared prepared = writeJobFiles(job, node, inputs, files);
            // The node keeps what this job wrote, as AiiDA keeps the sandbox it uploads; in the step's
            // transaction, so a submission tried again leaves the set of the attempt that committed.
            // The files copied from input nodes and the code's are on those nodes already: they join
            // the folder after.
            graph.inTransaction(c).replaceFiles(node, sandbox);
            copyFromNodes(files);
            copyCode(inputs, sandbox);
            node.setRemoteWorkdir(prepared.workdir());
            node.setJobAttribute("retrieve_list", prepared.retrieveList());
            Scheduler scheduler = ComputerAccess.scheduler(computer);
            if (settings.submissionsPerMinute() != null) {
                sleep(ComputerActivity.reserveSubmission(c, computer.id(), settings.submissionsPerMinute()));
            }
            try (Transport transport = access.open(computer, settings)) {
                // An attempt that may have submitted made the work directory first: what it left there
                // tells whether its job is queued, running, ended, or was lost by the scheduler.
                EarlierSubmission earlier = transport.exists(prepared.workdir())
                        ? EarlierSubmission.look(transport, scheduler, prepared.workdir(), prepared.jobName())
                        : EarlierSubmission.NONE;
                String jobId = earlier.jobId().isPresent()
                        ? earlier.jobId().get()
                        : upload(transport, scheduler, sandbox, prepared);
                node.setJobId(jobId);
                return new Submitted(
                        computer.id(), jobId, new RemoteData(computer.id(), prepared.workdir()), earlier.report());
            } catch (TransportException | SchedulerException e) {
                throw new JobFailures.Failure("submitting the job to " + computer.label(), settings, e);
            }
        } finally {
            deleteTree(sandbox);
        }
    }

    /** Uploads the job's folder, marks it submitted (a lost job is told from one never submitted), submits it. */
    private static String upload(Transport transport, Scheduler scheduler, Path sandbox, Prepared prepared) {
        transport.mkdirs(prepared.workdir());
        transport.put(sandbox, prepared.workdir());
        transport.write(
                prepared.workdir() + "/" + Scheduler.SUBMITTED_FILE,
                prepared.jobName().getBytes(StandardCharsets.UTF_8));
        return scheduler.submit(transport, prepared.workdir(), Scheduler.SUBMIT_SCRIPT);
    }

    /**
     * Brings the listed files back into a local folder and parses them: the parser's outputs
     * plus {@code retrieved}, with its exit code. The caller deletes the folder once the
     * outputs are stored; on a failure here it is deleted at once.
     */
    public Retrieved retrieve(Connection c, CalcJobDefinition job, CalcJobNode node, ProcessInputs inputs)
            throws Exception {
        Path local = Files.createTempDirectory("cairn-retrieved-");
        try {
            return new Retrieved(retrieveInto(c, job, node, inputs, local), local);
        } catch (Exception | Error e) {
            deleteTree(local);
            throw e;
        }
    }

    private Outputs retrieveInto(
            Connection c, CalcJobDefinition job, CalcJobNode node, ProcessInputs inputs, Path local) throws Exception {
        Computer computer = computerOf(node);
        ComputerSettings settings = computers.settings(computer.id());
        try (Transport transport = access.open(computer, settings)) {
            @SuppressWarnings("unchecked")
            List<String> retrieve = (List<String>) node.attribute("retrieve_list");
            for (String entry : retrieve == null ? List.<String>of() : retrieve) {
                for (String name : RemoteGlobs.expand(transport, node.remoteWorkdir(), entry)) {
                    Path target = local.resolve(name);
                    Files.createDirectories(target.getParent());
                    transport.get(node.remoteWorkdir() + "/" + name, target);
                }
            }
        } catch (TransportException e) {
            throw new JobFailures.Failure("retrieving the job's files from " + computer.label(), settings, e);
        }
        FolderData retrieved = FolderData.of(local);
        Outputs parsed = job.parser().parse(inputs, local);
        Outputs all = parsed.exitCode().isOk() ? Outputs.create() : Outputs.failed(parsed.exitCode());
        parsed.asMap().forEach(all::put);
        return all.put("retrieved", retrieved);
    }

    private Computer computerOf(CalcJobNode node) {
        if (node.computerId() == null) {
            throw new InvalidInputException(node.describe() + " has no computer to run on");
        }
        return computers.get(node.computerId());
    }

    /** The files the job's {@code prepare} asked to copy from stored nodes, copied into its folder. */
    private void copyFromNodes(JobFolder folder) throws IOException {
        for (JobFolder.NodeCopy copy : folder.nodeCopies()) {
            Path target =
                    copy.target().isEmpty() ? folder.root() : folder.root().resolve(copy.target());
            if (copy.path() != null) {
                copyNodeFile(copy.node(), copy.path(), target);
                continue;
            }
            for (String path : copy.node().files().keys().keySet()) {
                copyNodeFile(copy.node(), path, target.resolve(path));
            }
        }
    }

    private void copyNodeFile(Node node, String path, Path target) throws IOException {
        Files.createDirectories(target.getParent());
        try (var in = graph.openFile(node, path)) {
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * A portable code's files go with the job, except where the job wrote a file of the same path
     * (the job's is kept); the code's executable is made executable.
     */
    private void copyCode(ProcessInputs inputs, Path folder) throws IOException {
        if (!(inputs.get(CalcJobDefinition.CODE) instanceof PortableCode code)) {
            return;
        }
        for (String path : code.files().keys().keySet()) {
            Path target = folder.resolve(path);
            if (Files.exists(target)) {
                continue;
            }
            Files.createDirectories(target.getParent());
            try (var in = graph.openFile(code, path)) {
                Files.copy(in, target);
            }
        }
        Path executable = folder.resolve(code.executable());
        Files.setPosixFilePermissions(executable, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** Registers the job for the poller, in the step's transaction. */
    public static void watch(Connection c, long processId, long computerId, String jobId) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("INSERT INTO job_watch (node_id, computer_id, job_id) VALUES (?, ?, ?)"
                        + " ON CONFLICT (node_id) DO UPDATE SET job_id = excluded.job_id")) {
            s.setLong(1, processId);
            s.setLong(2, computerId);
            s.setString(3, jobId);
            s.executeUpdate();
        }
    }

    public static void deleteTree(Path root) {
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cleaning up " + root, e);
        }
    }

    private static void sleep(Duration wait) throws InterruptedException {
        if (!wait.isZero()) {
            Thread.sleep(wait);
        }
    }
}
