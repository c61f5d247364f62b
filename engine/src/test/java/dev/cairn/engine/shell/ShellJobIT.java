package dev.cairn.engine.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.engine.Engine;
import dev.cairn.engine.caching.CachingPolicy;
import dev.cairn.engine.launch.DryRun;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.InvalidInputsException;
import dev.cairn.engine.process.ProcessResult;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.engine.testing.TestEngine;
import dev.cairn.engine.testing.TestSshServer;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.BoolData;
import dev.cairn.storage.graph.CachingExtras;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.FloatData;
import dev.cairn.storage.graph.FolderData;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ListData;
import dev.cairn.storage.graph.SinglefileData;
import dev.cairn.storage.graph.StrData;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerSpec;
import dev.cairn.storage.graph.computers.ComputerStore;

/**
 * {@code core.shell} on this machine (local transport, direct scheduler, real programs) and over
 * SSH to a real SSH server in this JVM: files and values in, placeholders filled, outputs labelled
 * after their names, parsers, exit statuses as exit codes, caching, and bad inputs refused with
 * nothing stored.
 */
class ShellJobIT {

    @RegisterExtension
    static final TestEngine fixture = TestEngine.local().withObjects();

    @TempDir
    static Path tmp;

    static Computer localhost;
    static InstalledCode bash;

    @BeforeAll
    static void open() throws Exception {
        localhost = new ComputerStore(fixture.engine().database())
                .create(new ComputerSpec(
                        "localhost",
                        "localhost",
                        "",
                        "core.local",
                        "core.direct",
                        Map.of("workdir", tmp.resolve("work").toString())));
        bash = fixture.engine().graph().store(new InstalledCode(localhost.id(), "/bin/bash"));
    }

    static Inputs shell(InstalledCode code, String script, Map<String, ? extends Data> nodes) {
        return Inputs.create()
                .put(CalcJobDefinition.CODE, code)
                .put(ShellJob.ARGUMENTS, new ListData(List.of("-c", script)))
                .putAll(ShellJob.NODES, nodes);
    }

    @Test
    void filesAndValuesGoInAndOutputsComeBackLabelledAfterTheirNames() throws Exception {
        SinglefileData data = fixture.engine()
                .graph()
                .store(new SinglefileData("data.txt", "one\ntwo\nthree\n".getBytes(StandardCharsets.UTF_8)));
        Inputs inputs = shell(
                        bash,
                        "head -n {n} {data} > first.txt; echo '{\"lines\": {n}, \"ok\": true}' > result.json;"
                                + " echo 'E = -1.5D-03'; echo 'E = 2'; mkdir out; echo a > out/a; echo x > 1.dat",
                        Map.of("data", data, "n", new IntData(2)))
                .put(ShellJob.OUTPUTS, new ListData(List.of("first.txt", "out", "*.dat", "nothing*")))
                .put(
                        ShellJob.PARSERS,
                        new DictData(Map.of(
                                "result",
                                Map.of("json", "result.json"),
                                "energy",
                                Map.of("regex", "E = (\\S+)"),
                                "energies",
                                Map.of("regex", "E = (\\S+)", "match", "all"))));
        ProcessResult r = fixture.engine().launcher().run(ShellJob.DEFINITION, inputs);

        assertTrue(r.isFinishedOk(), r.node().exitStatus() + " " + r.node().exitMessage());
        assertEquals("E = -1.5D-03\nE = 2\n", text(r.outputs().get("stdout")));
        assertEquals("one\ntwo\n", text(r.outputs().get("first_txt")));
        assertEquals("x\n", text(r.outputs().get("aiida_shell_1_dat")));
        FolderData out = assertInstanceOf(FolderData.class, r.outputs().get("out"));
        assertEquals("a\n", new String(fixture.engine().graph().readFile(out, "a"), StandardCharsets.UTF_8));
        assertEquals(Map.of("lines", 2L, "ok", true), ((DictData) r.outputs().get("result")).asMap());
        assertEquals(-1.5e-3, ((FloatData) r.outputs().get("energy")).value());
        assertEquals(List.of(-1.5e-3, 2L), ((ListData) r.outputs().get("energies")).values());
        assertFalse(r.outputs().containsKey("stderr"), "nothing was written to standard error");
        assertTrue(r.outputs().containsKey("retrieved") && r.outputs().containsKey("remote_folder"));
        assertEquals(
                List.of("_cairn_submit.sh"),
                fixture.engine().graph().load(r.node().id()).files().list(""),
                "the input file is the input node's, not kept on the job's node again");
    }

    @Test
    void aFailedCommandsStatusAndStandardErrorAreItsExitCode() throws Exception {
        ProcessResult failed =
                fixture.engine().launcher().run(ShellJob.DEFINITION, shell(bash, "echo oops >&2; exit 3", Map.of()));
        assertEquals(400, failed.node().exitStatus());
        assertEquals("the command exited with status 3: oops", failed.node().exitMessage());
        assertEquals("oops\n", text(failed.outputs().get("stderr")));

        ProcessResult noisy =
                fixture.engine().launcher().run(ShellJob.DEFINITION, shell(bash, "echo warn >&2; echo ok", Map.of()));
        assertEquals(410, noisy.node().exitStatus());

        ProcessResult joined = fixture.engine()
                .launcher()
                .run(
                        ShellJob.DEFINITION,
                        shell(bash, "echo warn >&2; echo ok", Map.of())
                                .put(ShellJob.REDIRECT_STDERR, new BoolData(true)));
        assertTrue(joined.isFinishedOk(), joined.node().exitMessage());
        assertEquals("warn\nok\n", text(joined.outputs().get("stdout")));

        ProcessResult missing = fixture.engine()
                .launcher()
                .run(
                        ShellJob.DEFINITION,
                        shell(bash, "true", Map.of()).put(ShellJob.OUTPUTS, new ListData(List.of("result.txt"))));
        assertEquals(303, missing.node().exitStatus());
        assertTrue(
                missing.node().exitMessage().contains("result.txt"),
                missing.node().exitMessage());

        ProcessResult unparsed = fixture.engine()
                .launcher()
                .run(
                        ShellJob.DEFINITION,
                        shell(bash, "echo 'no energy here'", Map.of())
                                .put(ShellJob.PARSERS, new DictData(Map.of("energy", Map.of("regex", "E = (\\S+)")))));
        assertEquals(310, unparsed.node().exitStatus());
        assertTrue(
                unparsed.node().exitMessage().contains("parser 'energy': no match"),
                unparsed.node().exitMessage());
    }

    @Test
    void theCommandReadsAFileAsStandardInput() throws Exception {
        SinglefileData lines = fixture.engine()
                .graph()
                .store(new SinglefileData("lines.txt", "a\nb\nc\n".getBytes(StandardCharsets.UTF_8)));
        InstalledCode wc = fixture.engine()
                .graph()
                .store(new InstalledCode(localhost.id(), fixture.engine().locateExecutable(localhost, "wc")));
        ProcessResult r = fixture.engine()
                .launcher()
                .run(
                        ShellJob.DEFINITION,
                        Inputs.create()
                                .put(CalcJobDefinition.CODE, wc)
                                .put(ShellJob.ARGUMENTS, new ListData(List.of("-l")))
                                .put(ShellJob.NODES + ".lines", lines)
                                .put(ShellJob.STDIN, new StrData("lines.txt")));
        assertTrue(r.isFinishedOk(), r.node().exitMessage());
        assertEquals("3", text(r.outputs().get("stdout")).strip());
    }

    @Test
    void aProgramIsFoundOnTheComputerOrRefusedByName() {
        assertEquals("/bin/bash", fixture.engine().locateExecutable(localhost, "/bin/bash"));
        assertTrue(fixture.engine().locateExecutable(localhost, "echo").startsWith("/"), "a file, not the builtin");
        InvalidInputException missing = assertThrows(
                InvalidInputException.class,
                () -> fixture.engine().locateExecutable(localhost, "no-such-program-cairn"));
        assertEquals(
                "command 'no-such-program-cairn' was not found on computer 'localhost' (not on its PATH): install it"
                        + " there, or give its absolute path",
                missing.getMessage());
    }

    @Test
    void badInputsAreRefusedAtLaunchAndNothingIsStored() throws Exception {
        long before = EngineFixture.count(fixture.db(), "SELECT count(*) FROM node");
        SinglefileData a = new SinglefileData("x.txt", new byte[] {1});
        SinglefileData b = new SinglefileData("x.txt", new byte[] {2});
        List<Map.Entry<Inputs, String>> cases = List.of(
                Map.entry(
                        shell(bash, "cat {strucure}", Map.of("structure", a)),
                        "argument 'cat {strucure}' has the placeholder {strucure}, but there is no input nodes.strucure"
                                + " (nodes has [structure])"),
                Map.entry(
                        shell(bash, "cat {p}", Map.of("p", new DictData(Map.of("k", 1)))),
                        "nodes.p is a DictData, which is neither a file"),
                Map.entry(
                        shell(bash, "echo {n}", Map.of("n", new IntData(2)))
                                .put(ShellJob.FILENAMES, new DictData(Map.of("n", "n.txt"))),
                        "filenames.n: nodes.n is a IntData, not a file or folder"),
                Map.entry(
                        shell(bash, "cat {a} {b}", Map.of("a", a, "b", b)),
                        "would both be written to 'x.txt': give one of them another name in filenames"),
                Map.entry(
                        shell(bash, "true", Map.of("a", a)).put(ShellJob.FILENAMES, new DictData(Map.of("a", "../x"))),
                        "must be a path inside the work directory"),
                Map.entry(
                        shell(bash, "true", Map.of()).put(ShellJob.OUTPUTS, new ListData(List.of("stdout"))),
                        "output 'stdout' is a file the job writes itself"),
                Map.entry(
                        shell(bash, "true", Map.of())
                                .put(ShellJob.PARSERS, new DictData(Map.of("e", Map.of("regex", "(", "file", "x")))),
                        "parser 'e': 'regex' is not a regular expression"),
                Map.entry(
                        shell(bash, "true", Map.of())
                                .put(ShellJob.PARSERS, new DictData(Map.of("stdout", Map.of("json", "x")))),
                        "parser 'stdout': is an output every shell job has"));
        for (Map.Entry<Inputs, String> c : cases) {
            InvalidInputsException e = assertThrows(
                    InvalidInputsException.class,
                    () -> fixture.engine().launcher().run(ShellJob.DEFINITION, c.getKey()));
            assertTrue(e.getMessage().contains(c.getValue()), "expected '" + c.getValue() + "' in: " + e.getMessage());
        }
        assertEquals(before, EngineFixture.count(fixture.db(), "SELECT count(*) FROM node"), "nothing was stored");
    }

    @Test
    void anIdenticalShellJobIsTakenFromTheCache() throws Exception {
        Inputs inputs = shell(bash, "echo cached {x}", Map.of("x", new IntData(41)));
        try (Engine caching = EngineFixture.open(new Engine.Config(
                DatabaseConfig.of(fixture.db().jdbcUrl()).withPoolSize(2),
                null,
                "cairn",
                fixture.objectStore(),
                EngineFixture.plugins(),
                CachingPolicy.enabledFor("core.shell")))) {
            ProcessResult first = caching.launcher().run(ShellJob.DEFINITION, inputs);
            ProcessResult again = caching.launcher()
                    .run(ShellJob.DEFINITION, shell(bash, "echo cached {x}", Map.of("x", new IntData(41))));
            assertTrue(again.isFinishedOk());
            assertEquals(
                    first.node().uuid().toString(),
                    caching.graph().load(again.node().id()).extras().get(CachingExtras.CACHED_FROM));
            assertEquals("cached 41\n", text(again.outputs().get("stdout")));
            ProcessResult other = caching.launcher()
                    .run(ShellJob.DEFINITION, shell(bash, "echo cached {x}", Map.of("x", new IntData(42))));
            assertFalse(caching.graph().load(other.node().id()).extras().containsKey(CachingExtras.CACHED_FROM));
        }
    }

    @Test
    void aJobRunsOverSsh() throws Exception {
        try (TestSshServer sshd = TestSshServer.start(Files.createDirectories(tmp.resolve("keys")))) {
            Computer login = EngineFixture.sshComputer(
                    fixture.engine(), sshd, tmp.resolve("ssh-work"), tmp.resolve("known_hosts"));
            InstalledCode sort = fixture.engine()
                    .graph()
                    .store(new InstalledCode(login.id(), fixture.engine().locateExecutable(login, "sort")));
            SinglefileData words = fixture.engine()
                    .graph()
                    .store(new SinglefileData("words", "pear\napple\n".getBytes(StandardCharsets.UTF_8)));
            ProcessResult r = fixture.engine()
                    .launcher()
                    .run(
                            ShellJob.DEFINITION,
                            Inputs.create()
                                    .put(CalcJobDefinition.CODE, sort)
                                    .put(ShellJob.ARGUMENTS, new ListData(List.of("{w}", "-o", "sorted.txt")))
                                    .put(ShellJob.NODES + ".w", words)
                                    .put(ShellJob.OUTPUTS, new ListData(List.of("sorted.txt"))));
            assertTrue(r.isFinishedOk(), r.node().exitMessage());
            assertEquals("apple\npear\n", text(r.outputs().get("sorted_txt")));
        }
    }

    @Test
    void aPbsComputersSubmitScriptCapturesTheCommandsStreamsAndStatus() throws Exception {
        Computer pbs = new ComputerStore(fixture.engine().database())
                .create(new ComputerSpec(
                        "pbs-cluster",
                        "localhost",
                        "",
                        "core.local",
                        "core.pbspro",
                        Map.of("workdir", tmp.resolve("pbs-work").toString())));
        InstalledCode code = fixture.engine().graph().store(new InstalledCode(pbs.id(), "/usr/bin/sort"));
        DryRun dry = fixture.engine()
                .launcher()
                .dryRun(
                        ShellJob.DEFINITION,
                        Inputs.create()
                                .put(CalcJobDefinition.CODE, code)
                                .put(ShellJob.ARGUMENTS, new ListData(List.of("-n", "{f}")))
                                .put(
                                        ShellJob.NODES + ".f",
                                        fixture.engine()
                                                .graph()
                                                .store(new SinglefileData("in.txt", new byte[] {'2', '\n'}))),
                        tmp.resolve("dry"));
        assertTrue(dry.script().contains("#PBS"), dry.script());
        assertTrue(
                dry.script().contains("/usr/bin/sort -n in.txt > stdout 2> stderr\n\necho $? > status"), dry.script());
        assertEquals(List.of("stdout", "stderr", "status"), dry.retrieveList());
        assertEquals("2\n", Files.readString(dry.folder().resolve("in.txt")), "the input file is in the folder");
    }

    private static String text(Data node) {
        SinglefileData file = assertInstanceOf(SinglefileData.class, node);
        return new String(fixture.engine().graph().readFile(file, file.filename()), StandardCharsets.UTF_8);
    }
}
