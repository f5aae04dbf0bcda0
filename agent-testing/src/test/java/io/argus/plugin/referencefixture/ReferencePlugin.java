package io.argus.plugin.referencefixture;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.named;

/** A plugin whose advice on {@code com.example.lib.Server#handle} calls {@code Server.gone()}. */
public final class ReferencePlugin implements ArgusPlugin {

    @Override
    public String name() {
        return "reference-fixture";
    }

    @Override
    public void instrument(Probes probes) {
        probes.type("com.example.lib.Server").advise(named("handle"), HandleAdvice.class.getName());
    }
}
