package dev.cairn.e2e;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cairn-client ({@code clients/python}) as a user has it: installed from the checkout by
 * {@code .ci/python} into a venv of its own, checked by {@code mypy --strict}, its pytest suite run
 * against the server jar in its embedded mode (its own PostgreSQL and broker), and the notebook
 * {@code docs/notebooks/run-and-plot.ipynb} executed (nbmake) against the same server.
 */
class PythonClientIT {

    @TempDir
    Path dataDir;

    @Test
    void theClientIsTypedItsTestsPassAndTheNotebookRuns() {
        Path python = PythonTools.clientPython();
        Path repo = PythonTools.repository();
        Path client = repo.resolve("clients/python");
        PythonTools.Run mypy = PythonTools.run(
                "client-mypy",
                List.of(
                        python.toString(),
                        "-m",
                        "mypy",
                        "--strict",
                        client.resolve("src/cairn_client").toString()),
                Map.of(),
                Duration.ofMinutes(5));
        try (CairnServerProcess server =
                CairnServerProcess.builder("python-client", dataDir).start().awaitReady()) {
            String token = server.adminToken();
            LocalComputer.register(server, dataDir.resolve("work"));
            Map<String, String> env = Map.of(
                    "CAIRN_TEST_URL",
                    server.url().toString(),
                    "CAIRN_TEST_TOKEN",
                    token,
                    "CAIRN_URL",
                    server.url().toString(),
                    "CAIRN_TOKEN",
                    token,
                    "MPLBACKEND",
                    "Agg",
                    "PYTHONUNBUFFERED",
                    "1");
            PythonTools.Run tests = PythonTools.run(
                    "client-pytest",
                    List.of(
                            python.toString(),
                            "-m",
                            "pytest",
                            "-p",
                            "no:cacheprovider",
                            "-q",
                            client.resolve("tests").toString(),
                            "--nbmake",
                            repo.resolve("docs/notebooks/run-and-plot.ipynb").toString()),
                    env,
                    Duration.ofMinutes(15));
            assertAll(
                    () -> assertEquals(0, mypy.exit(), "mypy --strict:\n" + mypy.output()),
                    () -> assertTrue(mypy.output().contains("Success: no issues found"), mypy.output()),
                    () -> assertEquals(0, tests.exit(), "pytest:\n" + tests.output() + server.logTail()),
                    () -> assertTrue(tests.output().matches("(?s).*\\b\\d+ passed\\b.*"), tests.output()));
        }
    }
}
