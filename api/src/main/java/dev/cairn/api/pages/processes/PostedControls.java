package dev.cairn.api.pages.processes;

import java.util.Locale;

import dev.cairn.api.processes.ProcessControlService;
import dev.cairn.storage.errors.InvalidInputException;

/** The controls a page's forms post, by the name they carry. */
final class PostedControls {

    private PostedControls() {}

    /** The action {@code name} names (pause, play, kill); another is refused, naming the valid ones. */
    static ProcessControlService.Action action(String name) {
        try {
            return ProcessControlService.Action.valueOf(name.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("'" + name + "' is not a control: pause, play or kill");
        }
    }

    /** What the action did, as a page says it: Paused, Played, Killed. */
    static String done(ProcessControlService.Action action) {
        return switch (action) {
            case PAUSE -> "Paused";
            case PLAY -> "Played";
            case KILL -> "Killed";
        };
    }
}
