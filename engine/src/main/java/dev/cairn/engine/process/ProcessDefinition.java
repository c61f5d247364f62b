package dev.cairn.engine.process;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * A process type as a plugin declares it: its entry-point name (unique across plugins,
 * e.g. "arithmetic.add"), its spec, and how it runs.
 */
public sealed interface ProcessDefinition permits CalcFunction, WorkFunction, WorkChainDefinition, CalcJobDefinition {

    /** The process type's name, unique across plugins: dotted lower-case words ("arithmetic.add"). */
    String entryPoint();

    /** What the process takes and gives. */
    ProcessSpec spec();

    /**
     * Returns {@code name} when it is an entry point: lower-case words (letters, digits, '_')
     * joined by at least one dot. Anything else is refused with an {@code InvalidInputException}
     * giving an example; every definition checks its name so when it is made.
     */
    static String checkEntryPoint(String name) {
        if (name == null || !name.matches("[a-z0-9_]+(\\.[a-z0-9_]+)+")) {
            throw new InvalidInputException(
                    "entry point '" + name + "' must be dotted lower-case words, e.g. 'arithmetic.add'");
        }
        return name;
    }
}
