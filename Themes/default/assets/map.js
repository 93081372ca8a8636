// Puts every restaurant of /map/ on a Leaflet map. Without JavaScript or Leaflet the
// page still lists the restaurants with links to OpenStreetMap.
(function () {
  "use strict";
  var element = document.querySelector("[data-map]");
  var data = document.getElementById("map-data");
  if (!element || !data || !window.L) return;

  var places = JSON.parse(data.textContent);
  if (!places.length) return;
  element.hidden = false;
  L.Icon.Default.imagePath = element.getAttribute("data-images");

  // Leaflet's own words, in the site's language from the page.
  var words = function (name) { return element.getAttribute("data-" + name) || ""; };
  var map = L.map(element, { scrollWheelZoom: false, zoomControl: false });
  L.control.zoom({ zoomInTitle: words("zoom-in"), zoomOutTitle: words("zoom-out") }).addTo(map);
  var contributors = document.createElement("span");
  contributors.textContent = words("contributors");
  L.tileLayer("https://tile.openstreetmap.org/{z}/{x}/{y}.png", {
    maxZoom: 19,
    attribution: "&copy; <a href=\"https://www.openstreetmap.org/copyright\">OpenStreetMap</a> " + contributors.innerHTML
  }).addTo(map);

  var layer = L.markerClusterGroup ? L.markerClusterGroup({ showCoverageOnHover: false }) : L.featureGroup();
  places.forEach(function (place) {
    var popup = document.createElement("div");
    var title = document.createElement("p");
    title.className = "map-popup-title";
    var link = document.createElement("a");
    link.href = place.url;
    link.textContent = place.name;
    title.appendChild(link);
    popup.appendChild(title);
    if (place.address) {
      var address = document.createElement("p");
      address.textContent = place.address;
      popup.appendChild(address);
    }
    var count = document.createElement("p");
    count.className = "map-popup-count";
    count.textContent = place.countText;
    popup.appendChild(count);
    var marker = L.marker([place.lat, place.lon], { title: place.name, alt: place.name, keyboard: true });
    marker.bindPopup(popup);
    layer.addLayer(marker);
  });
  map.addLayer(layer);
  var bounds = L.latLngBounds(places.map(function (place) { return [place.lat, place.lon]; }));
  map.fitBounds(bounds, { padding: [32, 32], maxZoom: 16 });
})();
