package dev.cairn.engine.process;

import java.util.List;

import dev.cairn.storage.errors.InvalidInputException;

/** A launch's inputs do not fit the process's spec; each problem names its port. Nothing was stored. */
public final class InvalidInputsException extends InvalidInputException {

    private final List<String> problems;

    /** The problems found in the inputs of {@code process} (its entry point), each naming its port. */
    public InvalidInputsException(String process, List<String> problems) {
        super("invalid inputs for " + process + ": " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /** Every problem found, each naming its port. */
    public List<String> problems() {
        return problems;
    }
}
