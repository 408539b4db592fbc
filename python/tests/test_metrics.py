"""daemon.metrics and ``seguectl stats --openmetrics``: OpenMetrics text that Prometheus' own parsers read.

prometheus_client (scripts/setup --tests installs it) has the OpenMetrics parser and the Prometheus text-format
parser node exporter's textfile collector follows; the text must pass the first and be read by the second.
"""

import os
import subprocess

import pytest

openmetrics = pytest.importorskip("prometheus_client.openmetrics.parser")
prometheus_text = pytest.importorskip("prometheus_client.parser")


def _families(text):
    return {family.name: family for family in openmetrics.text_string_to_metric_families(text)}


def test_metrics_parse_as_openmetrics(segued):
    segued.call("daemon.ping")
    segued.call("vc.create", id="a", color="#ff0000")
    text = segued.call("daemon.metrics")["text"]
    assert text.endswith("# EOF\n")
    families = _families(text)
    for name, kind in [
        ("segued_requests", "counter"),
        ("segued_request_errors", "counter"),
        ("segued_request_duration_seconds", "histogram"),
        ("segued_scenes", "gauge"),
        ("segued_connections", "gauge"),
        ("segued_plugins", "gauge"),
        ("segued_transitions_started", "counter"),
        ("segued_transitions_ended", "counter"),
        ("segued_plugin_failures", "counter"),
        ("segued_build_info", "gauge"),
    ]:
        assert families[name].type == kind, name
    assert all(name.startswith("segued_") for name in families)
    assert families["segued_request_duration_seconds"].unit == "seconds"
    ping = [s for s in families["segued_request_duration_seconds"].samples if s.labels.get("method") == "daemon.ping"]
    buckets = [s for s in ping if s.name.endswith("_bucket")]
    assert buckets[-1].labels["le"] == "+Inf"
    count = next(s.value for s in ping if s.name.endswith("_count"))
    assert buckets[-1].value == count >= 1
    assert [float(s.labels["le"]) for s in buckets[:3]] == [1e-05, 2.5e-05, 5e-05]
    assert families["segued_scenes"].samples[0].value >= 1


def test_metrics_read_by_the_prometheus_text_parser(segued):
    """What node exporter's textfile collector reads: the same samples (# UNIT and # EOF are comments there)."""
    text = segued.call("daemon.metrics")["text"]
    names = set()
    for family in prometheus_text.text_string_to_metric_families(text):
        for sample in family.samples:
            names.add(sample.name)
    assert {"segued_requests_total", "segued_request_duration_seconds_bucket", "segued_scenes"} <= names


def test_seguectl_stats_openmetrics(segued_socket):
    seguectl = os.path.join(os.path.dirname(_segued_binary()), "seguectl")
    if not os.path.exists(seguectl):
        pytest.skip("no seguectl beside the segued under test")
    out = subprocess.run([seguectl, "stats", "--openmetrics", "--socket", segued_socket], capture_output=True,
                         text=True, timeout=30, check=True).stdout
    assert out.endswith("# EOF\n")
    assert "segued_requests" in _families(out)


def _segued_binary():
    from segued.daemon import find_binary

    return os.environ.get("SEGUED_BIN") or find_binary(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
