package dev.cairn.storage.graph;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * A crystal structure: a 3×3 cell (rows are lattice vectors, Å), periodicity along each
 * vector, kinds of site (name, element symbols with weights, mass) and sites (kind name,
 * Cartesian position). Stored as the attributes {@code cell}, {@code pbc1..3},
 * {@code kinds} and {@code sites}, so queries can reach every part.
 */
public final class StructureData extends Data {

    public static final String TYPE = "data.core.structure.StructureData.";

    // the attribute form of a kind and a site, as Kind.toMap and Site.toMap write them
    private static final Set<String> KIND_KEYS = Set.of("name", "symbols", "weights", "mass");
    private static final Set<String> SITE_KEYS = Set.of("kind_name", "position");

    /** One kind of site. */
    public record Kind(String name, List<String> symbols, List<Double> weights, double mass) {
        public Kind {
            symbols = List.copyOf(symbols);
            weights = List.copyOf(weights);
            if (symbols.isEmpty() || symbols.size() != weights.size()) {
                throw new InvalidInputException("kind " + name + ": one weight per symbol, at least one symbol");
            }
        }

        /** A kind of one element. */
        public static Kind of(String symbol, double mass) {
            return new Kind(symbol, List.of(symbol), List.of(1.0), mass);
        }

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", name);
            m.put("symbols", symbols);
            m.put("weights", weights);
            m.put("mass", mass);
            return m;
        }
    }

    /** One site: its kind's name and its position. */
    public record Site(String kindName, double x, double y, double z) {
        Map<String, Object> toMap() {
            return Map.of("kind_name", kindName, "position", List.of(x, y, z));
        }
    }

    /** A structure; every site must name one of the kinds. */
    public StructureData(double[][] cell, boolean[] pbc, List<Kind> kinds, List<Site> sites) {
        super(TYPE);
        if (cell.length != 3 || cell[0].length != 3 || cell[1].length != 3 || cell[2].length != 3) {
            throw new InvalidInputException("the cell is 3×3");
        }
        if (pbc.length != 3) {
            throw new InvalidInputException("pbc has one flag per lattice vector");
        }
        Set<String> names = new HashSet<>();
        for (Kind k : kinds) {
            if (!names.add(k.name())) {
                throw new InvalidInputException("kind " + k.name() + " is given twice");
            }
        }
        for (Site s : sites) {
            if (!names.contains(s.kindName())) {
                throw new InvalidInputException("a site names kind " + s.kindName() + ", which is not among " + names);
            }
        }
        List<List<Double>> rows = new ArrayList<>(3);
        for (double[] row : cell) {
            rows.add(List.of(row[0], row[1], row[2]));
        }
        setAttribute("cell", rows);
        setAttribute("pbc1", pbc[0]);
        setAttribute("pbc2", pbc[1]);
        setAttribute("pbc3", pbc[2]);
        setAttribute("kinds", kinds.stream().map(Kind::toMap).toList());
        setAttribute("sites", sites.stream().map(Site::toMap).toList());
    }

    StructureData(NodeRecord row) {
        super(row);
    }

    private StructureData() {
        super(TYPE);
    }

    /**
     * A structure from its attribute form ({@code cell}, {@code pbc1..3}, {@code kinds},
     * {@code sites}), as imports and JSON clients give it; checked like the typed constructor
     * and stored as it stores (numbers as floats, so {@code 0} and {@code 0.0} make the same
     * structure and the same hash).
     */
    public static StructureData of(Map<String, ?> attributes) {
        Set<String> expected = Set.of("cell", "pbc1", "pbc2", "pbc3", "kinds", "sites");
        if (!attributes.keySet().equals(expected)) {
            throw new InvalidInputException("a structure has exactly the attributes " + new TreeSet<>(expected)
                    + ", got " + new TreeSet<>(attributes.keySet()));
        }
        StructureData s = new StructureData();
        expected.forEach(k -> s.setAttribute(k, attributes.get(k)));
        s.check();
        // cleaned and checked, it is the typed constructor's structure already unless a number is an integer
        return s.numbersAreFloats() ? s : new StructureData(s.cell(), s.pbc(), s.kinds(), s.sites());
    }

    /** Whether every number the typed constructor stores as a float (cell, weights, masses, positions) is one. */
    private boolean numbersAreFloats() {
        for (Object row : (List<?>) attribute("cell")) {
            if (!allFloats(row)) {
                return false;
            }
        }
        for (Object kind : (List<?>) attribute("kinds")) {
            Map<?, ?> m = (Map<?, ?>) kind;
            if (!(m.get("mass") instanceof Double) || !allFloats(m.get("weights"))) {
                return false;
            }
        }
        for (Object site : (List<?>) attribute("sites")) {
            if (!allFloats(((Map<?, ?>) site).get("position"))) {
                return false;
            }
        }
        return true;
    }

    private static boolean allFloats(Object list) {
        for (Object o : (List<?>) list) {
            if (!(o instanceof Double)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The typed constructor's rules, on the cleaned attributes: a 3×3 cell of numbers, three
     * boolean flags, kinds of exactly {@code name}, {@code symbols}, {@code weights} (one number
     * per symbol) and {@code mass} with distinct names, sites of exactly {@code kind_name} (one
     * of the kinds) and {@code position} (three numbers). Each refusal names where it is.
     */
    private void check() {
        if (!(attribute("cell") instanceof List<?> rows)
                || rows.size() != 3
                || !rows.stream().allMatch(StructureData::isThreeNumbers)) {
            throw new InvalidInputException("cell: three rows of three numbers, got " + attribute("cell"));
        }
        for (String pbc : List.of("pbc1", "pbc2", "pbc3")) {
            if (!(attribute(pbc) instanceof Boolean)) {
                throw new InvalidInputException(pbc + ": a boolean, got " + attribute(pbc));
            }
        }
        Set<String> names = new HashSet<>();
        List<?> kinds = list("kinds");
        for (int i = 0; i < kinds.size(); i++) {
            String where = "kinds[" + i + "]";
            if (!(kinds.get(i) instanceof Map<?, ?> kind) || !kind.keySet().equals(KIND_KEYS)) {
                throw new InvalidInputException(
                        where + ": an object of exactly " + new TreeSet<>(KIND_KEYS) + ", got " + kinds.get(i));
            }
            if (!(kind.get("name") instanceof String name) || !names.add(name)) {
                throw new InvalidInputException(
                        where + ": name must be a string no other kind has, got " + kind.get("name"));
            }
            if (!(kind.get("symbols") instanceof List<?> symbols)
                    || symbols.isEmpty()
                    || !symbols.stream().allMatch(String.class::isInstance)) {
                throw new InvalidInputException(where + ": symbols must be a non-empty list of strings");
            }
            if (!(kind.get("weights") instanceof List<?> weights)
                    || weights.size() != symbols.size()
                    || !weights.stream().allMatch(Number.class::isInstance)) {
                throw new InvalidInputException(where + ": weights must be one number per symbol");
            }
            if (!(kind.get("mass") instanceof Number)) {
                throw new InvalidInputException(where + ": mass must be a number");
            }
        }
        List<?> sites = list("sites");
        for (int i = 0; i < sites.size(); i++) {
            String where = "sites[" + i + "]";
            if (!(sites.get(i) instanceof Map<?, ?> site) || !site.keySet().equals(SITE_KEYS)) {
                throw new InvalidInputException(
                        where + ": an object of exactly " + new TreeSet<>(SITE_KEYS) + ", got " + sites.get(i));
            }
            if (!names.contains(site.get("kind_name"))) {
                throw new InvalidInputException(
                        where + ": kind_name " + site.get("kind_name") + " is not among the kinds " + names);
            }
            if (!isThreeNumbers(site.get("position"))) {
                throw new InvalidInputException(where + ": position must be three numbers [x, y, z]");
            }
        }
    }

    private List<?> list(String key) {
        if (!(attribute(key) instanceof List<?> list)) {
            throw new InvalidInputException(key + ": a list, got " + attribute(key));
        }
        return list;
    }

    private static boolean isThreeNumbers(Object value) {
        return value instanceof List<?> l && l.size() == 3 && l.stream().allMatch(Number.class::isInstance);
    }

    /** The cell's three vectors, one per row. */
    public double[][] cell() {
        List<?> rows = (List<?>) attribute("cell");
        double[][] cell = new double[3][3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                cell[i][j] = ((Number) ((List<?>) rows.get(i)).get(j)).doubleValue();
            }
        }
        return cell;
    }

    /** Whether the structure is periodic along each of the cell's three vectors. */
    public boolean[] pbc() {
        return new boolean[] {(Boolean) attribute("pbc1"), (Boolean) attribute("pbc2"), (Boolean) attribute("pbc3")};
    }

    /** The kinds of site, in the order they were added. */
    public List<Kind> kinds() {
        List<Kind> kinds = new ArrayList<>();
        for (Object o : (List<?>) attribute("kinds")) {
            Map<?, ?> m = (Map<?, ?>) o;
            List<Double> weights = ((List<?>) m.get("weights"))
                    .stream().map(w -> ((Number) w).doubleValue()).toList();
            kinds.add(new Kind(
                    (String) m.get("name"),
                    ((List<?>) m.get("symbols"))
                            .stream().map(String.class::cast).toList(),
                    weights,
                    ((Number) m.get("mass")).doubleValue()));
        }
        return kinds;
    }

    /** The sites, in the order they were added. */
    public List<Site> sites() {
        List<Site> sites = new ArrayList<>();
        for (Object o : (List<?>) attribute("sites")) {
            Map<?, ?> m = (Map<?, ?>) o;
            List<?> p = (List<?>) m.get("position");
            sites.add(new Site(
                    (String) m.get("kind_name"),
                    ((Number) p.get(0)).doubleValue(),
                    ((Number) p.get(1)).doubleValue(),
                    ((Number) p.get(2)).doubleValue()));
        }
        return sites;
    }
}
