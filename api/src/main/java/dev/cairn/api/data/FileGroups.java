package dev.cairn.api.data;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.springframework.web.multipart.MultipartFile;
import tools.jackson.databind.JsonNode;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.FolderData;
import dev.cairn.storage.graph.SinglefileData;

/**
 * The files of a multipart request, grouped by the first name of their paths: a part whose filename is
 * {@code plot/fig.png} is the file {@code fig.png} of the group {@code plot}. The request's JSON names a
 * group by a typed form without a value: {@code {"type": "file"}}, a SinglefileData of the group's one
 * file; {@code {"type": "folder"}}, a FolderData of its files at their paths (none sent: an empty
 * folder); {@code {"type": "array"}}, an ArrayData of its {@code <name>.npy} files. A group no form
 * takes is a problem, so no file sent goes unseen; closing closes the streams the nodes read from as
 * they are stored.
 */
public final class FileGroups implements AutoCloseable {

    /** The types of the forms that name a group. */
    public static final Set<String> TYPES = Set.of("file", "folder", "array");

    private final String part;
    private final boolean multipart;
    private final Map<String, Map<String, MultipartFile>> groups = new TreeMap<>();
    private final List<String> refused = new ArrayList<>();
    private final Set<String> taken = new HashSet<>();
    private final OpenedStreams opened = new OpenedStreams();

    private FileGroups(String part, boolean multipart) {
        this.part = part;
        this.multipart = multipart;
    }

    /** A request with no files: a JSON body, where a form of a file is a problem that says how to send one. */
    public static FileGroups none(String part) {
        return new FileGroups(part, false);
    }

    /** The files of the parts named {@code part}; a filename that is no path of a group's file is a problem. */
    public static FileGroups of(String part, List<MultipartFile> files) {
        FileGroups groups = new FileGroups(part, true);
        for (MultipartFile file : files) {
            groups.add(file);
        }
        return groups;
    }

    private void add(MultipartFile file) {
        String name = file.getOriginalFilename();
        try {
            FileNames.check(name);
        } catch (InvalidInputException e) {
            refused.add(part + ": " + e.getMessage());
            return;
        }
        int slash = name.indexOf('/');
        if (slash < 0) {
            refused.add(part + ": file name '" + name + "' names no output; it is <output>/<file name>, as"
                    + " plot/fig.png");
            return;
        }
        String path = name.substring(slash + 1);
        if (groups.computeIfAbsent(name.substring(0, slash), g -> new TreeMap<>())
                        .putIfAbsent(path, file)
                != null) {
            refused.add(part + ": file name '" + name + "' comes twice");
        }
    }

    /** Whether {@code form} names a group of files rather than giving a value. */
    public static boolean names(JsonNode form) {
        return form.isObject()
                && form.path("type").isString()
                && TYPES.contains(form.get("type").stringValue());
    }

    /**
     * An unstored node of the files of {@code group}, as {@code form} (one of {@link #names}) says; what is
     * wrong is added to {@code problems}, each beginning with {@code where}, and null returned.
     */
    public Data take(String where, String group, JsonNode form, List<String> problems) {
        String type = form.get("type").stringValue();
        String a = type.equals("array") ? "an " : "a ";
        if (form.size() != 1) {
            problems.add(where + ": " + a + type + " is {\"type\": \"" + type + "\"} alone; its content comes as"
                    + " parts '" + part + "'");
            return null;
        }
        if (!multipart) {
            problems.add(where + ": " + a + type + " comes in a multipart/form-data request: the run as JSON in the"
                    + " part 'run', each file in a part '" + part + "' named " + group + "/<file name>");
            return null;
        }
        taken.add(group);
        Map<String, MultipartFile> files = groups.getOrDefault(group, Map.of());
        if (type.equals("array")) {
            return NpyFiles.arrays(where, files, opened::open, problems);
        }
        if (type.equals("folder")) {
            FolderData folder = new FolderData();
            files.forEach((path, file) -> folder.files().put(path, opened.open(file)));
            return folder;
        }
        if (files.size() != 1 || files.keySet().iterator().next().contains("/")) {
            problems.add(where + ": a file is one part '" + part + "' named " + group + "/<file name>, got "
                    + (files.isEmpty() ? "none" : String.join(", ", files.keySet()))
                    + "; a folder is of type folder");
            return null;
        }
        var only = files.entrySet().iterator().next();
        return new SinglefileData(only.getKey(), opened.open(only.getValue()));
    }

    /** The problems of the files themselves: a bad name, a file twice, a group no form took. */
    public void check(List<String> problems) {
        problems.addAll(refused);
        for (String group : groups.keySet()) {
            if (!taken.contains(group)) {
                problems.add(part + ": the files of '" + group + "' ("
                        + String.join(", ", groups.get(group).keySet())
                        + ") belong to nothing of type file, folder or array");
            }
        }
    }

    @Override
    public void close() throws IOException {
        opened.close();
    }
}
