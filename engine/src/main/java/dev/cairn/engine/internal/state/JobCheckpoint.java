package dev.cairn.engine.internal.state;

import java.util.Locale;
import java.util.Map;

/** The stage a calculation job is at: its next step submits the job, or retrieves what it made. */
public record JobCheckpoint(Stage stage) implements Checkpoint {

    public enum Stage {
        /** Prepare, upload and submit (the first step; also every retry of it). */
        SUBMIT,
        /** The job is done: bring its files back and parse them. */
        RETRIEVE
    }

    public static final JobCheckpoint SUBMIT = new JobCheckpoint(Stage.SUBMIT);
    public static final JobCheckpoint RETRIEVE = new JobCheckpoint(Stage.RETRIEVE);

    /** Reads the row's form; a job that has not stepped yet has none and submits. */
    public static JobCheckpoint fromJson(Map<String, Object> json) {
        Object stage = json.get("stage");
        if (stage == null) {
            return SUBMIT;
        }
        try {
            return new JobCheckpoint(Stage.valueOf(stage.toString().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("a calculation job's checkpoint names the unknown stage '" + stage + "'");
        }
    }

    @Override
    public String toJson() {
        return "{\"stage\":\"" + stage.name().toLowerCase(Locale.ROOT) + "\"}";
    }
}
