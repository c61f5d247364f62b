package dev.cairn.storage.views;

import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * One process as lists show it: what ran, its state and how it ended.
 *
 * @param processType   its entry point
 * @param state         its state: created, waiting, finished, excepted or killed
 * @param paused        whether it is paused (it keeps its state and does not go on)
 * @param exitStatus    how it ended, 0 for success; null until it finished
 * @param processStatus what it is doing or waiting for, or null
 * @param user          the email of the user it runs for
 * @param caller        the process that called it; null for a top-level process
 */
public record ProcessView(
        long id,
        UUID uuid,
        String processType,
        String nodeType,
        String label,
        String state,
        boolean paused,
        Integer exitStatus,
        String processStatus,
        OffsetDateTime ctime,
        OffsetDateTime mtime,
        String user,
        UUID caller) {}
