package dev.cairn.cli.commands.completion;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cairn completion}: the shell completion script, for bash and for zsh (the same script; zsh
 * runs it through bashcompinit).
 */
@Command(
        name = "completion",
        description = {
            "Print the completion script for bash or zsh. Install it with:",
            "  bash: cairn completion > ~/.local/share/bash-completion/completions/cairn",
            "  zsh:  echo 'source <(cairn completion zsh)' >> ~/.zshrc   (the script loads compinit and bashcompinit)"
        })
public final class CompletionCommand implements Runnable {

    enum Shell {
        bash,
        zsh
    }

    @Spec
    CommandSpec spec;

    @Parameters(
            paramLabel = "SHELL",
            arity = "0..1",
            defaultValue = "bash",
            description = "bash or zsh (the same script).")
    Shell shell;

    @Override
    public void run() {
        spec.commandLine().getOut().print(AutoComplete.bash("cairn", spec.root().commandLine()));
        spec.commandLine().getOut().flush();
    }
}
