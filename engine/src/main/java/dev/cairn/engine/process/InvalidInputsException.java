package dev.cairn.engine.process;

import java.util.List;

import dev.cairn.errors.InvalidInputException;

/** A launch's inputs do not fit the process's spec; each problem names its port. Nothing was stored. */
public final class InvalidInputsException extends InvalidInputException {

    private final List<String> problems;

    public InvalidInputsException(String process, List<String> problems) {
        super("invalid inputs for " + process + ": " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
