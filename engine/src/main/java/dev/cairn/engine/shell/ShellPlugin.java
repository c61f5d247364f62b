package dev.cairn.engine.shell;

import java.util.List;

import dev.cairn.engine.plugin.CairnPlugin;
import dev.cairn.engine.process.ProcessDefinition;

/** The process types built into the engine: {@code core.shell}. Found like any plugin's. */
public final class ShellPlugin implements CairnPlugin {

    @Override
    public String name() {
        return "core";
    }

    @Override
    public List<ProcessDefinition> processes() {
        return List.of(ShellJob.DEFINITION);
    }
}
