package dev.cairn.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import dev.cairn.engine.process.CalcInfo;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.ExitCode;
import dev.cairn.engine.process.Outputs;
import dev.cairn.storage.graph.IntData;

/**
 * {@code arithmetic.add} as a calculation job, as in AiiDA: the code (bash) runs a script
 * that echoes x + y, and the parser reads the sum from its output.
 */
public final class ArithmeticAddJob {

    public static final ExitCode NO_OUTPUT =
            new ExitCode(310, "ERROR_READING_OUTPUT_FILE", "the output file could not be read: {message}", true);
    public static final ExitCode INVALID_OUTPUT =
            new ExitCode(320, "ERROR_INVALID_OUTPUT", "the output file holds no integer: {message}", true);

    static final String INPUT = "aiida.in";
    static final String OUTPUT = "aiida.out";

    public static final CalcJobDefinition DEFINITION = new CalcJobDefinition(
            "arithmetic.add",
            CalcJobDefinition.specBuilder()
                    .input(Arithmetic.X)
                    .input(Arithmetic.Y)
                    .output(Arithmetic.RESULT)
                    .exitCode(NO_OUTPUT)
                    .exitCode(INVALID_OUTPUT)
                    .build(),
            (in, folder) -> {
                folder.write(
                        INPUT,
                        "echo $((" + in.get(Arithmetic.X).value() + " + "
                                + in.get(Arithmetic.Y).value() + "))\n");
                return new CalcInfo(List.of(), INPUT, OUTPUT, null, List.of(OUTPUT));
            },
            (in, retrieved) -> {
                String text;
                try {
                    text = Files.readString(retrieved.resolve(OUTPUT)).strip();
                } catch (IOException e) {
                    return Outputs.failed(NO_OUTPUT.format("message", e.getMessage()));
                }
                try {
                    return Outputs.of(Arithmetic.RESULT, new IntData(Long.parseLong(text)));
                } catch (NumberFormatException e) {
                    return Outputs.failed(INVALID_OUTPUT.format("message", "'" + text + "'"));
                }
            });

    private ArithmeticAddJob() {}
}
