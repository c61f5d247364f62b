package dev.cairn.engine.process;

import java.nio.file.Path;
import java.util.Objects;

import dev.cairn.errors.InvalidInputException;
import dev.cairn.storage.graph.Code;
import dev.cairn.storage.graph.FolderData;
import dev.cairn.storage.graph.RemoteData;

/**
 * A calculation job type: it runs a code on a computer. {@code prepare} writes the input
 * files and says how to call the code; the engine uploads them to a fresh work directory,
 * submits through the computer's scheduler, waits, retrieves the listed files into a
 * {@code retrieved} folder, and {@code parse} turns them into outputs and an exit code.
 * Every spec has the input {@link #CODE}.
 */
public record CalcJobDefinition(String entryPoint, ProcessSpec spec, Preparer preparer, Parser parser)
        implements ProcessDefinition {

    /** The code a job runs. */
    public static final InputPort<Code> CODE =
            InputPort.required("code", Code.class).withHelp("the code to run");

    @FunctionalInterface
    public interface Preparer {
        CalcInfo prepare(ProcessInputs inputs, JobFolder folder) throws Exception;
    }

    @FunctionalInterface
    public interface Parser {
        /** @param retrieved a local folder holding the retrieved files */
        Outputs parse(ProcessInputs inputs, Path retrieved) throws Exception;
    }

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

    /** A spec builder with the {@link #CODE} input already declared. */
    public static ProcessSpec.Builder specBuilder() {
        return ProcessSpec.builder()
                .input(CODE)
                .output(OutputPort.optional("remote_folder", RemoteData.class)
                        .withHelp("the job's work directory on its computer"))
                .output(OutputPort.optional("retrieved", FolderData.class)
                        .withHelp("the files brought back from the work directory"));
    }
}
