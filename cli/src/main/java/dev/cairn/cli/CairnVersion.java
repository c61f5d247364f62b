package dev.cairn.cli;

import picocli.CommandLine.IVersionProvider;

/** {@code cairn --version}: the version the build wrote in the jar's manifest, and the JVM it runs on. */
final class CairnVersion implements IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = CairnVersion.class.getPackage().getImplementationVersion();
        return new String[] {
            "cairn " + (version == null ? "development" : version),
            "JVM: ${java.version} (${java.vendor} ${java.vm.name} ${java.vm.version})"
        };
    }
}
