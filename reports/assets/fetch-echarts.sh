#!/bin/sh
# fetch-echarts.sh refreshes the Apache ECharts build that package reports
# embeds, from the echarts npm package. Run it from any directory, or through
# `go generate ./reports/`. It needs npm, tar and sha256sum.
#
# To move to another version: change ECHARTS_VERSION (and ZRENDER_VERSION to
# the zrender version that echarts' package.json depends on), run the script
# with VERIFY=0, check the new files, then update the checksums below, the
# version in README.md and echartsVersion in ../echarts.go, and regenerate the
# golden files (go test ./reports/ -update).
set -eu

ECHARTS_VERSION=5.4.3
ZRENDER_VERSION=5.4.4
ECHARTS_MIN_SHA256=1156429a16a38cb8604dcc6518c19406d4226142d908f8edd2e3531443c54d19

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$tmp"
npm pack --silent "echarts@$ECHARTS_VERSION" >/dev/null
npm pack --silent "zrender@$ZRENDER_VERSION" >/dev/null
mkdir echarts zrender
tar xzf "echarts-$ECHARTS_VERSION.tgz" -C echarts
tar xzf "zrender-$ZRENDER_VERSION.tgz" -C zrender

if [ "${VERIFY:-1}" != 0 ]; then
	echo "$ECHARTS_MIN_SHA256  echarts/package/dist/echarts.min.js" | sha256sum -c -
fi

cp echarts/package/dist/echarts.min.js "$here/echarts.min.js"
cp echarts/package/LICENSE "$here/LICENSE-echarts"
cp echarts/package/NOTICE "$here/NOTICE-echarts"
cp echarts/package/licenses/LICENSE-d3 "$here/LICENSE-d3"
cp zrender/package/LICENSE "$here/LICENSE-zrender"
echo "reports/assets: echarts $ECHARTS_VERSION, zrender $ZRENDER_VERSION"
