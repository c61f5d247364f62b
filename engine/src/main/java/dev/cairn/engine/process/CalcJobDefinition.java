package dev.cairn.engine.process;

import java.nio.file.Path;
import java.util.Objects;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.Code;
import dev.cairn.storage.graph.FolderData;
import dev.cairn.storage.graph.RemoteData;

/**
 * A calculation job type: it runs a code on a computer. {@code prepare} writes the input
 * files and says how to call the code; the engine uploads them to a fresh work directory,
 * submits through the computer's scheduler, waits, retrieves the listed files into a
 * {@code retrieved} folder, and {@code parse} turns them into outputs and an exit code.
 * Every spec has the input {@link #CODE}: start it from {@link #specBuilder()}.
 *
 * @param entryPoint the process type's name, unique across plugins ("arithmetic.add")
 * @param spec       the inputs and outputs, with {@link #CODE} among the inputs
 * @param preparer   writes the input files and says how to run the code
 * @param parser     reads the retrieved files into outputs
 */
public record CalcJobDefinition(String entryPoint, ProcessSpec spec, Preparer preparer, Parser parser)
        implements ProcessDefinition {

    /** The code a job runs. */
    public static final InputPort<Code> CODE =
            InputPort.required("code", Code.class).withHelp("the code to run");

    /** A job's first stage, run on a worker before anything is uploaded. */
    @FunctionalInterface
    public interface Preparer {
        /**
         * Writes the job's input files into {@code folder} and returns how to call the code.
         * It may run more than once (for a dry run, and again when a submission is tried
         * again), so it should write the same files for the same inputs; an exception fails
         * the process.
         */
        CalcInfo prepare(ProcessInputs inputs, JobFolder folder) throws Exception;
    }

    /** A job's last stage, run once the files of a finished job are back. */
    @FunctionalInterface
    public interface Parser {
        /**
         * Reads the retrieved files into outputs (new data by port path), or returns
         * {@link Outputs#failed} with one of the spec's exit codes when they say the run failed.
         *
         * @param retrieved a local folder holding the retrieved files
         */
        Outputs parse(ProcessInputs inputs, Path retrieved) throws Exception;
    }

    /**
     * Refuses a malformed entry point, missing parts, and a spec without the {@link #CODE}
     * input (an {@code InvalidInputException} saying so).
     */
    public CalcJobDefinition {
        ProcessDefinition.checkEntryPoint(entryPoint);
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(preparer, "preparer");
        Objects.requireNonNull(parser, "parser");
        if (!(spec.inputs().ports().get("code") instanceof InputPort<?> code)
                || !Code.class.isAssignableFrom(code.type())) {
            throw new InvalidInputException(
                    entryPoint + ": a calculation job's spec needs the input CalcJobDefinition.CODE");
        }
    }

    /**
     * A spec builder with the {@link #CODE} input already declared, and the optional outputs
     * every job may have: {@code remote_folder} (the work directory) and {@code retrieved}.
     */
    public static ProcessSpec.Builder specBuilder() {
        return ProcessSpec.builder()
                .input(CODE)
                .output(OutputPort.optional("remote_folder", RemoteData.class)
                        .withHelp("the job's work directory on its computer"))
                .output(OutputPort.optional("retrieved", FolderData.class)
                        .withHelp("the files brought back from the work directory"));
    }
}
