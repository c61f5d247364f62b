package dev.cairn.engine.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import dev.cairn.engine.process.CalcInfo;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.JobFolder;
import dev.cairn.engine.process.Outputs;
import dev.cairn.engine.process.ProcessInputs;
import dev.cairn.engine.scheduler.JobCommand;
import dev.cairn.engine.scheduler.JobTemplate;
import dev.cairn.engine.scheduler.Scheduler;
import dev.cairn.engine.transport.Transport;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.Code;
import dev.cairn.storage.graph.Computer;
import dev.cairn.storage.graph.ComputerStore;
import dev.cairn.storage.graph.FolderData;
import dev.cairn.storage.graph.InvalidInputException;
import dev.cairn.storage.graph.RemoteData;

/**
 * The stages of a calculation job, one durable step each: {@code submit} (prepare the
 * input files, upload them to a fresh work directory, submit through the scheduler unless
 * a job of this node's name is already there, and wait); {@code retrieve} (once the job
 * poller saw the job done: bring back the listed files as the {@code retrieved} folder and
 * parse them into outputs and an exit code).
 */
final class CalcJobRunner {

    static final String SCRIPT = "_cairn_submit.sh";

    /** A submitted job, to be watched by the job poller. */
    record Waiting(long computerId, String jobId) {
    }

    private final Database database;

    CalcJobRunner(Database database) {
        this.database = database;
    }

    Waiting submit(CalcJobDefinition job, CalcJobNode node, ProcessInputs inputs, StepEffects effects) throws Exception {
        Code code = inputs.get(CalcJobDefinition.CODE);
        Computer computer = computerOf(code);
        Path sandbox = Files.createTempDirectory("cairn-job-");
        try {
            CalcInfo info = job.preparer().prepare(inputs, new JobFolder(sandbox));
            String workdir = ComputerAccess.workdir(computer) + "/" + node.uuid().toString().substring(0, 2) + "/"
                + node.uuid().toString().substring(2, 4) + "/" + node.uuid().toString().substring(4);
            Scheduler scheduler = ComputerAccess.scheduler(computer);
            String jobName = "cairn-" + node.uuid();
            List<String> argv = new ArrayList<>();
            argv.add(code.executable());
            argv.addAll(info.arguments());
            JobTemplate template = JobTemplate.of(jobName, workdir, JobCommand.of(argv.toArray(String[]::new))
                .withStreams(info.stdinName(), info.stdoutName(), info.stderrName()));
            Files.writeString(sandbox.resolve(SCRIPT), scheduler.submitScript(template));
            node.setRemoteWorkdir(workdir);
            node.setJobAttribute("retrieve_list", info.retrieveList());
            effects.outputs.put("remote_folder", new RemoteData(computer.id(), workdir));
            try (Transport transport = ComputerAccess.transport(computer, Map.of())) {
                transport.mkdirs(workdir);
                transport.put(sandbox, workdir);
                String jobId = scheduler.findByName(transport, jobName)
                    .orElseGet(() -> scheduler.submit(transport, workdir, SCRIPT));
                node.setJobId(jobId);
                return new Waiting(computer.id(), jobId);
            }
        } finally {
            deleteTree(sandbox);
        }
    }

    /**
     * Brings the listed files back into a local folder that {@code effects} deletes after the
     * step, and parses them: the parser's outputs plus {@code retrieved}, with its exit code.
     */
    Outputs retrieve(CalcJobDefinition job, CalcJobNode node, ProcessInputs inputs, StepEffects effects) throws Exception {
        Computer computer = computerOf(inputs.get(CalcJobDefinition.CODE));
        Path local = Files.createTempDirectory("cairn-retrieved-");
        effects.scratch.add(local);
        try (Transport transport = ComputerAccess.transport(computer, Map.of())) {
            @SuppressWarnings("unchecked")
            List<String> retrieve = (List<String>) node.attribute("retrieve_list");
            for (String name : retrieve == null ? List.<String>of() : retrieve) {
                String remote = node.remoteWorkdir() + "/" + name;
                if (transport.exists(remote)) {
                    Path target = local.resolve(name);
                    Files.createDirectories(target.getParent());
                    transport.get(remote, target);
                }
            }
        }
        FolderData retrieved = FolderData.of(local);
        Outputs parsed = job.parser().parse(inputs, local);
        Outputs all = parsed.exitCode().isOk() ? Outputs.create() : Outputs.failed(parsed.exitCode());
        parsed.asMap().forEach(all::put);
        return all.put("retrieved", retrieved);
    }

    private Computer computerOf(Code code) {
        if (code.computerId() == null)
            throw new InvalidInputException(code.describe() + " is not installed on a computer");
        return new ComputerStore(database).get(code.computerId());
    }

    /** Registers the job for the poller, in the step's transaction. */
    static void watch(Connection c, long processId, long computerId, String jobId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO job_watch (node_id, computer_id, job_id) VALUES (?, ?, ?)"
            + " ON CONFLICT (node_id) DO UPDATE SET job_id = excluded.job_id")) {
            s.setLong(1, processId);
            s.setLong(2, computerId);
            s.setString(3, jobId);
            s.executeUpdate();
        }
    }

    static void deleteTree(Path root) {
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList())
                Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cleaning up " + root, e);
        }
    }
}
