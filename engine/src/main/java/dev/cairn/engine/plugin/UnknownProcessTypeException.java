package dev.cairn.engine.plugin;

import java.util.Collection;

import dev.cairn.storage.errors.NotFoundException;

/** No plugin on this JVM provides the entry point; the message lists those that are provided. */
public final class UnknownProcessTypeException extends NotFoundException {

    /** {@code entryPoint} was asked for; {@code known} are the entry points there are. */
    public UnknownProcessTypeException(String entryPoint, Collection<String> known) {
        super("no plugin provides the process type '" + entryPoint + "'; known process types: "
                + (known.isEmpty() ? "none (is the plugin jar on the class path?)" : String.join(", ", known)));
    }
}
