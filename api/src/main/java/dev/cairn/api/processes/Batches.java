package dev.cairn.api.processes;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import dev.cairn.engine.launch.Launcher;
import dev.cairn.engine.process.InvalidInputsException;
import dev.cairn.storage.errors.InvalidInputException;

/**
 * What every batch launch shares: a size between one and the limit, and all its launches
 * decoded and checked before any is stored, so that the batch is launched whole or not at all.
 */
final class Batches {

    private Batches() {}

    /**
     * {@code items} when they are between 1 and {@code max}, else a refusal naming the field.
     *
     * @param field what the body calls the list ("launches")
     */
    static <T> List<T> checkSize(List<T> items, String field, int max) {
        if (items == null || items.isEmpty()) {
            throw new InvalidInputException("'" + field + "' is required: a list of at least one");
        }
        if (items.size() > max) {
            throw new InvalidInputException("a batch takes at most " + max + " " + field
                    + " (cairn.limits.batch-max), not " + items.size() + ": send it in several batches");
        }
        return items;
    }

    /**
     * The launches of {@code requests}, each decoded and checked as a submit would check it; every
     * problem of every request is refused together, each named by its index ({@code launches[3]:
     * input 'x' …}).
     *
     * @param field what the body calls the list, for the indexes and the message
     */
    static <R> List<Launcher.Launch> decodeAll(
            List<R> requests, String field, Function<R, Launcher.Launch> decode, Launcher launcher) {
        List<Launcher.Launch> launches = new ArrayList<>(requests.size());
        List<String> problems = new ArrayList<>();
        int invalid = 0;
        for (int i = 0; i < requests.size(); i++) {
            String at = field + "[" + i + "]: ";
            int before = problems.size();
            R request = requests.get(i);
            try {
                if (request == null) {
                    throw new InvalidInputException("each is an object, not null");
                }
                Launcher.Launch launch = decode.apply(request);
                launcher.validate(launch.definition(), launch.inputs());
                launches.add(launch);
            } catch (InvalidInputsException e) {
                e.problems().forEach(p -> problems.add(at + p));
            } catch (InvalidInputException e) {
                problems.add(at + e.getMessage());
            }
            if (problems.size() > before) {
                invalid++;
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputsException(
                    "a batch of " + requests.size() + " " + field + " (" + invalid + " invalid; none was launched)",
                    problems);
        }
        return launches;
    }
}
