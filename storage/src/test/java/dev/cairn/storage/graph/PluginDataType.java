package dev.cairn.storage.graph;

import java.util.List;

/** A data type from a "plugin": registered through {@link DataTypeProvider} in the test resources. */
public final class PluginDataType extends Data {

    public static final String TYPE = "data.testplugin.kpoints.KpointsMesh.";

    public PluginDataType(int nx, int ny, int nz) {
        super(TYPE);
        setAttribute("mesh", List.of(nx, ny, nz));
    }

    PluginDataType(NodeRecord row) {
        super(row);
    }

    public List<?> mesh() {
        return (List<?>) attribute("mesh");
    }

    /** The provider the ServiceLoader finds. */
    public static final class Provider implements DataTypeProvider {
        @Override
        public List<DataType<?>> dataTypes() {
            return List.of(new DataType<>(TYPE, PluginDataType.class, PluginDataType::new));
        }
    }
}
