package dev.cairn.storage.archive.aiida;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Real aiida-core 2.9.4, run through {@code src/test/python/aiida_archives.py} with the venv's python and
 * verdi ({@code CAIRN_TEST_AIIDA_PYTHON}, {@code CAIRN_TEST_VERDI}; {@code source .ci/python} makes the
 * venv and sets both). A missing variable fails the test saying so: these tests never skip.
 */
final class AiidaPython {

    private static final long TIMEOUT_SECONDS = 600;

    private AiidaPython() {}

    /**
     * A small provenance graph made by running real processes in a fresh profile under {@code home}, exported
     * with {@code verdi archive create --all} to {@code archive}; returns the script's report of it.
     */
    static JsonNode build(Path archive, Path home) throws IOException, InterruptedException {
        return run("build", archive, home);
    }

    /**
     * {@code archive} imported by {@code verdi archive import} into a fresh profile under {@code home};
     * returns the script's report of the profile and of {@code verdi archive info}.
     */
    static JsonNode importArchive(Path archive, Path home) throws IOException, InterruptedException {
        return run("import", archive, home);
    }

    private static JsonNode run(String command, Path archive, Path home) throws IOException, InterruptedException {
        Path python = executable("CAIRN_TEST_AIIDA_PYTHON", "python");
        Path verdi = executable("CAIRN_TEST_VERDI", "verdi");
        Files.createDirectories(home);
        Path out = home.resolve(command + ".json");
        Path log = home.resolve(command + ".log");
        ProcessBuilder builder = new ProcessBuilder(
                        List.of(python.toString(), script().toString(), command, archive.toString()))
                .redirectOutput(out.toFile())
                .redirectError(log.toFile());
        builder.environment().put("CAIRN_TEST_VERDI", verdi.toString());
        builder.environment().put("CAIRN_AIIDA_HOME", home.toString());
        builder.environment().remove("AIIDA_PATH");
        Process process = builder.start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("aiida_archives.py " + command + " did not end within " + TIMEOUT_SECONDS
                    + " s; its log:\n" + tail(log));
        }
        if (process.exitValue() != 0) {
            throw new AssertionError("aiida_archives.py " + command + " " + archive + " failed with exit code "
                    + process.exitValue() + "; its log:\n" + tail(log));
        }
        return JsonMapper.builder().build().readTree(Files.readString(out, UTF_8));
    }

    private static Path script() {
        Path script = Path.of(System.getProperty("cairn.aiida.script", "src/test/python/aiida_archives.py"))
                .toAbsolutePath();
        if (!Files.isRegularFile(script)) {
            throw new IllegalStateException("no script at " + script + " (the failsafe configuration names it)");
        }
        return script;
    }

    private static Path executable(String variable, String what) {
        String value = System.getenv(variable);
        if (value == null || value.isBlank()) {
            throw new AssertionError(variable + " is not set: it names the " + what + " of a venv with aiida-core"
                    + " 2.9.4, which the AiiDA archive tests run. `source .ci/python` makes the venv and sets it"
                    + " (and CAIRN_TEST_AIIDA_PYTHON / CAIRN_TEST_VERDI); by hand: python3 -m venv /tmp/aiida-venv &&"
                    + " /tmp/aiida-venv/bin/pip install -r storage/src/test/python/aiida-requirements.txt && export"
                    + " CAIRN_TEST_AIIDA_PYTHON=/tmp/aiida-venv/bin/python CAIRN_TEST_VERDI=/tmp/aiida-venv/bin/verdi");
        }
        Path path = Path.of(value);
        if (!Files.isExecutable(path)) {
            throw new AssertionError(variable + "=" + value + " is no executable file");
        }
        return path;
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
