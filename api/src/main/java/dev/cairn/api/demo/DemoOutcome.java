package dev.cairn.api.demo;

import java.time.Duration;

/**
 * What one of the demo's processes did, as the table shows it.
 *
 * @param uuid       the process node's uuid
 * @param state      its process state ({@code finished}, {@code excepted}, …; still {@code waiting} if it did not end in time)
 * @param exitStatus null while it runs
 * @param result     the value of the output the launch names, or null
 * @param time       from its creation to its last change
 * @param cachedFrom the uuid of the node it took its outputs from, or null if it ran
 */
record DemoOutcome(
        String uuid, String title, String state, Integer exitStatus, Object result, Duration time, String cachedFrom) {}
