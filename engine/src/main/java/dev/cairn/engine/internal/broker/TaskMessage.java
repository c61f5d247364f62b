package dev.cairn.engine.internal.broker;

import java.nio.charset.StandardCharsets;

import dev.cairn.storage.errors.InvalidInputException;

/** A task on the wire: run process {@code processId} from step {@code step}. */
public record TaskMessage(long processId, int step) {

    byte[] toBytes() {
        return ("{\"process\":" + processId + ",\"step\":" + step + "}").getBytes(StandardCharsets.US_ASCII);
    }

    static TaskMessage fromBytes(byte[] body) {
        String json = new String(body, StandardCharsets.US_ASCII);
        try {
            long process = Long.parseLong(field(json, "process"));
            int step = Integer.parseInt(field(json, "step"));
            return new TaskMessage(process, step);
        } catch (RuntimeException e) {
            throw new InvalidInputException("not a task message: " + json, e);
        }
    }

    private static String field(String json, String name) {
        String key = "\"" + name + "\":";
        int at = json.indexOf(key);
        if (at < 0) {
            throw new InvalidInputException("no field " + name);
        }
        int start = at + key.length();
        int end = start;
        while (end < json.length() && (Character.isDigit(json.charAt(end)) || json.charAt(end) == '-')) {
            end++;
        }
        return json.substring(start, end);
    }
}
