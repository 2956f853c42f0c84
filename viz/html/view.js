/*
 * view.js - the script of the page `render --html` writes (devplan,
 * viz/html/view.html; embedded at build time by viz/html/embed.cmake).
 *
 * The page holds Graphviz's SVG, where each node is a g element of class
 * node whose title is n42, named after its expression id
 * (a reference node, a short-hand beside a consumer for a long edge, is
 * n42_7 and stands for the value n42), and a JSON block with one record per
 * drawn value, keyed by that name. This script adds, with no library and
 * nothing from the network:
 *
 * - pan (drag) and zoom (wheel around the pointer, the +/- buttons, fit),
 *   by changing the SVG's viewBox;
 * - a search box: `%x`, `x` or `n42` finds the value, centres it and
 *   selects it;
 * - selection: clicking a node (or a reference node) outlines every node
 *   drawn for the value and shows its record in the side panel: op, type,
 *   device, the `why` chain, its uses and the copies that read it, whose
 *   names select them in turn;
 * - toggles that hide parameters and constants (and the edges out of them),
 *   and the function or region clusters' boxes;
 * - a page that opens readable: a graph that fits the window at a legible
 *   scale opens whole; a bigger one (a real model is tens of thousands of
 *   pixels tall) opens at 100% on its first conflict, else its first copy,
 *   else its top, with that value selected, and a map of the whole graph
 *   in a corner to click into;
 * - labels that fit their boxes: Graphviz measured each label with the
 *   first font of the SVG's font-family list its machine has, which a
 *   browser on the same machine takes too; a label drawn wider than its
 *   node (another machine, another font) is squeezed into it.
 *
 * Self-test (tests/browser-test): with `#selftest=%x` in the URL the script
 * dispatches a real click MouseEvent on the node's shape, so that the
 * handler a user's click runs, runs (`#selftest-reference=%x`: on a
 * reference node drawn for %x); with `#selftest-search=%x` it submits
 * the search form; `selftest-params=off` and `selftest-clusters=off` click
 * the toggles; `selftest-zoom` clicks +, turns the wheel and drags;
 * `selftest-view` reports how the page opened, `selftest-labels` how many
 * labels were squeezed or still overflow, `selftest-map` clicks the map
 * three quarters of the way down, and `selftest-font=FAMILY` draws the
 * labels in another font before they are fitted. It
 * then writes what the page shows (the panel's text, the status line, what
 * is selected and whether it is centred) into a pre element with the id
 * selftest-result, which `chromium --dump-dom` prints.
 */
(function () {
	'use strict';

	var SVG_NS = 'http://www.w3.org/2000/svg';

	var data = JSON.parse(document.getElementById('devplan-data').textContent);
	var records = data.nodes || {};
	var pane = document.getElementById('graph');
	var svg = pane.querySelector('svg');
	var panel = document.getElementById('panel');
	var statusLine = document.getElementById('status');
	var searchForm = document.getElementById('search');
	var searchBox = document.getElementById('search-box');
	var showParams = document.getElementById('show-params');
	var showClusters = document.getElementById('show-clusters');

	var byName = {}; /* %x -> record key (the first drawn value of that name) */
	var shapes = {}; /* record key -> the node groups drawn for it */
	var mainShape = {}; /* record key -> its own node group (not a reference node) */
	var keyOf = new Map(); /* node group -> record key */
	var selected = null;

	Object.keys(records).forEach(function (key) {
		var name = records[key].name;
		if (name && !(name in byName))
			byName[name] = key;
	});

	function status(text) {
		statusLine.textContent = text;
	}

	if (!svg) {
		status('the page holds no graph');
		return;
	}

	var order = []; /* record keys in drawing order (execution order) */
	svg.querySelectorAll('g.node').forEach(function (g) {
		var title = g.querySelector('title');
		var m = title && /^(n\d+)(_\d+)?$/.exec(title.textContent.trim());
		if (!m)
			return;
		keyOf.set(g, m[1]);
		(shapes[m[1]] = shapes[m[1]] || []).push(g);
		if (!m[2]) {
			mainShape[m[1]] = g;
			order.push(m[1]);
		}
	});

	/* ---- pan and zoom, on the viewBox ---- */

	var base = svg.viewBox.baseVal;
	var home = base && base.width ? { x: base.x, y: base.y, w: base.width, h: base.height }
		: (function () {
			var b = svg.getBBox();
			return { x: b.x, y: b.y, w: b.width || 1, h: b.height || 1 };
		})();
	var view = { x: home.x, y: home.y, w: home.w, h: home.h };
	svg.removeAttribute('width');
	svg.removeAttribute('height');
	svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');

	function applyView() {
		svg.setAttribute('viewBox', [view.x, view.y, view.w, view.h].join(' '));
		updateMap();
	}

	/* A point of the window in the SVG's coordinates. */
	function toGraph(clientX, clientY) {
		var p = svg.createSVGPoint();
		p.x = clientX;
		p.y = clientY;
		return p.matrixTransform(svg.getScreenCTM().inverse());
	}

	/* Zooms by factor (> 1: in) keeping the point (cx, cy) where it is. */
	function zoom(factor, cx, cy) {
		var w = view.w / factor;
		if (w < home.w / 200 || w > home.w * 20)
			return;
		view.x = cx - (cx - view.x) / factor;
		view.y = cy - (cy - view.y) / factor;
		view.w = w;
		view.h = view.h / factor;
		applyView();
	}

	function zoomCentre(factor) {
		zoom(factor, view.x + view.w / 2, view.y + view.h / 2);
	}

	function fit() {
		view = { x: home.x, y: home.y, w: home.w, h: home.h };
		applyView();
	}

	pane.addEventListener('wheel', function (event) {
		var p = toGraph(event.clientX, event.clientY);
		event.preventDefault();
		zoom(event.deltaY < 0 ? 1.2 : 1 / 1.2, p.x, p.y);
	}, { passive: false });
	document.getElementById('zoom-in').addEventListener('click', function () {
		zoomCentre(1.25);
	});
	document.getElementById('zoom-out').addEventListener('click', function () {
		zoomCentre(1 / 1.25);
	});
	document.getElementById('zoom-fit').addEventListener('click', fit);

	var drag = null; /* the pointer's start and the view then */
	var dragged = false; /* the last press moved: its click is not a selection */
	pane.addEventListener('pointerdown', function (event) {
		if (event.button !== 0)
			return;
		drag = { x: event.clientX, y: event.clientY, vx: view.x, vy: view.y,
			scale: svg.getScreenCTM().a };
		dragged = false;
	});
	window.addEventListener('pointermove', function (event) {
		var dx, dy;
		if (!drag)
			return;
		dx = event.clientX - drag.x;
		dy = event.clientY - drag.y;
		if (!dragged && Math.abs(dx) + Math.abs(dy) < 4)
			return;
		dragged = true;
		pane.classList.add('dragging');
		view.x = drag.vx - dx / drag.scale;
		view.y = drag.vy - dy / drag.scale;
		applyView();
	});
	window.addEventListener('pointerup', function () {
		drag = null;
		pane.classList.remove('dragging');
	});

	/* ---- selection and the panel ---- */

	/* The record key a user's word names: %x, x or n42. */
	function lookup(word) {
		word = (word || '').trim();
		if (!word)
			return null;
		if (word in byName)
			return byName[word];
		if (('%' + word) in byName)
			return byName['%' + word];
		if (word in records)
			return word;
		return null;
	}

	/* Centres the value's node, zooming in when the graph is drawn too small to read. */
	function centre(key) {
		var g = mainShape[key] || (shapes[key] || [])[0];
		var r, c;
		if (!g)
			return;
		if (svg.getScreenCTM().a < 0.8) {
			var f = 1 / svg.getScreenCTM().a;
			view.w /= f;
			view.h /= f;
			applyView();
		}
		r = g.getBoundingClientRect();
		c = toGraph(r.left + r.width / 2, r.top + r.height / 2);
		view.x = c.x - view.w / 2;
		view.y = c.y - view.h / 2;
		applyView();
	}

	function element(tag, text, className) {
		var e = document.createElement(tag);
		if (text !== undefined && text !== null)
			e.textContent = text;
		if (className)
			e.className = className;
		return e;
	}

	/* A name that selects its value when it is drawn. */
	function valueLink(key, name) {
		var a;
		if (!(key in records))
			return element('span', name);
		a = element('a', name);
		a.href = '#';
		a.addEventListener('click', function (event) {
			event.preventDefault();
			select(key);
			centre(key);
		});
		return a;
	}

	function deviceColour(key) {
		var g = mainShape[key];
		var shape = g && g.querySelector('polygon, ellipse, path');
		var fill = shape && shape.getAttribute('fill');
		return fill && fill.charAt(0) === '#' ? fill : null;
	}

	function showPanel(key) {
		var r = records[key];
		var dl = element('dl');
		var dd, colour, list;
		panel.textContent = '';
		panel.appendChild(element('h2', r.name));
		function row(label, value) {
			dl.appendChild(element('dt', label));
			dd = element('dd', value === null || value === undefined ? '-' : value);
			dl.appendChild(dd);
			return dd;
		}
		row('op', r.op);
		row('type', r.type);
		dd = row('device', r.device || 'not placed yet');
		colour = r.device && deviceColour(key);
		if (colour) {
			var swatch = element('span', null, 'swatch');
			swatch.style.background = colour;
			dd.insertBefore(swatch, dd.firstChild);
		}
		panel.appendChild(dl);

		panel.appendChild(element('h3', 'why'));
		panel.appendChild(element('pre', r.why || 'nothing has been planned yet'));

		panel.appendChild(element('h3', 'uses (' + r.uses.length + ')'));
		if (r.uses.length) {
			list = element('ul');
			r.uses.forEach(function (u) {
				var li = element('li');
				li.appendChild(valueLink(u.node, u.name));
				list.appendChild(li);
			});
			panel.appendChild(list);
		} else {
			panel.appendChild(element('p', 'none', 'hint'));
		}

		panel.appendChild(element('h3', 'copies (' + r.copies.length + ')'));
		if (r.copies.length) {
			list = element('ul');
			r.copies.forEach(function (c) {
				var li = element('li');
				li.appendChild(valueLink(c.node, c.name));
				li.appendChild(document.createTextNode(': ' + c.from + ' \u2192 ' + c.to +
					(c.bytes === null || c.bytes === undefined ? '' : ', ' + c.bytes + ' bytes')));
				list.appendChild(li);
			});
			panel.appendChild(list);
		} else {
			panel.appendChild(element('p', 'none', 'hint'));
		}
	}

	function select(key) {
		if (selected)
			(shapes[selected] || []).forEach(function (g) { g.classList.remove('dp-selected'); });
		selected = key;
		(shapes[key] || []).forEach(function (g) { g.classList.add('dp-selected'); });
		showPanel(key);
		status(records[key].name);
	}

	svg.addEventListener('click', function (event) {
		var g = event.target.closest && event.target.closest('g.node');
		if (!g || !keyOf.has(g))
			return;
		event.preventDefault(); /* a node Graphviz wrapped in a link stays here */
		if (dragged) {
			dragged = false;
			return;
		}
		if (keyOf.get(g) in records)
			select(keyOf.get(g));
	});

	searchForm.addEventListener('submit', function (event) {
		var word = searchBox.value.trim();
		var key = lookup(word);
		event.preventDefault();
		if (!word)
			return;
		if (!key) {
			status('no value named ' + word + ' is drawn');
			return;
		}
		select(key);
		centre(key);
		status('found ' + records[key].name);
	});

	/* ---- toggles ---- */

	/* The record key of an edge's end ("n3_7" -> "n3"). */
	function endKey(name) {
		var m = /^(n\d+)(_\d+)?(:.*)?$/.exec(name.trim());
		return m ? m[1] : null;
	}

	function applyParams() {
		var hide = !showParams.checked;
		var hidden = {};
		Object.keys(shapes).forEach(function (key) {
			var h = hide && records[key] && records[key].parameter;
			if (h)
				hidden[key] = true;
			shapes[key].forEach(function (g) { g.classList.toggle('dp-hidden', !!h); });
		});
		svg.querySelectorAll('g.edge').forEach(function (g) {
			var title = g.querySelector('title');
			var ends = title ? title.textContent.split('->') : [];
			var h = ends.some(function (end) { return hidden[endKey(end)]; });
			g.classList.toggle('dp-hidden', h);
		});
		status(hide ? Object.keys(hidden).length + ' parameters and constants hidden' : '');
	}

	var clusters = [];
	var regions = false;
	svg.querySelectorAll('g.cluster').forEach(function (g) {
		var title = g.querySelector('title');
		var name = title ? title.textContent.trim() : '';
		if (!/^cluster_/.test(name) || name === 'cluster_legend')
			return;
		clusters.push(g);
		if (/^cluster_r/.test(name))
			regions = true;
	});
	document.getElementById('clusters-label').textContent = regions ? 'regions' : 'functions';
	if (!clusters.length)
		document.getElementById('clusters-toggle').style.display = 'none';
	if (!Object.keys(records).some(function (k) { return records[k].parameter; }))
		document.getElementById('params-toggle').style.display = 'none';

	showParams.addEventListener('change', applyParams);
	showClusters.addEventListener('change', function () {
		clusters.forEach(function (g) { g.classList.toggle('dp-hidden', !showClusters.checked); });
	});

	/* ---- labels that fit their boxes ---- */

	var selftestParams = /^#selftest/.test(location.hash) ?
		new URLSearchParams(location.hash.slice(1)) : null;

	/* The label lines of each node drawn wider than its shape are squeezed
	 * into it (textLength), so that none spills over, whatever font the
	 * browser has; with the font Graphviz measured, none is. */
	function fitLabels() {
		var counts = { labels: 0, squeezed: 0, most: 1 };
		svg.querySelectorAll('g.node').forEach(function (g) {
			var shape = g.querySelector('polygon, ellipse, path');
			var box = shape && shape.getBBox();
			if (!box || !box.width)
				return;
			g.querySelectorAll('text').forEach(function (t) {
				var room = box.width - 4, w = t.getComputedTextLength();
				counts.labels++;
				if (room > 0 && w > box.width - 2) {
					t.setAttribute('textLength', room);
					t.setAttribute('lengthAdjust', 'spacingAndGlyphs');
					counts.squeezed++;
					counts.most = Math.max(counts.most, w / room);
				}
			});
		});
		return counts;
	}

	/* The first family of a font-family list the browser has: a family it
	 * lacks falls back to the generic family after it, so a probe drawn in
	 * "F", monospace and in "F", serif measures the same only when F is
	 * there. A generic family (sans-serif) is named as such. */
	function firstFontOf(list) {
		var families = (list || '').split(','), probe, i, f, a, b;
		var generic = /^(serif|sans-serif|monospace|cursive|fantasy|system-ui)$/i;
		probe = document.createElementNS(SVG_NS, 'text');
		probe.textContent = 'Tensor[(1, 12, 128, 128), float32] WWWiii';
		svg.appendChild(probe);
		try {
			for (i = 0; i < families.length; i++) {
				f = families[i].trim().replace(/^["']|["']$/g, '');
				if (generic.test(f))
					return f + ' (generic)';
				probe.style.fontFamily = '"' + f + '", monospace';
				a = probe.getComputedTextLength();
				probe.style.fontFamily = '"' + f + '", serif';
				b = probe.getComputedTextLength();
				if (Math.abs(a - b) < 0.01)
					return f;
			}
			return 'none of ' + list;
		} finally {
			svg.removeChild(probe);
		}
	}

	/* Labels still wider than their node's shape. */
	function overflowingLabels() {
		var n = 0;
		svg.querySelectorAll('g.node').forEach(function (g) {
			var shape = g.querySelector('polygon, ellipse, path');
			var box = shape && shape.getBBox();
			if (!box || !box.width)
				return;
			g.querySelectorAll('text').forEach(function (t) {
				var b = t.getBBox();
				if (b.x < box.x - 0.5 || b.x + b.width > box.x + box.width + 0.5)
					n++;
			});
		});
		return n;
	}

	if (selftestParams && selftestParams.has('selftest-font'))
		svg.querySelectorAll('text').forEach(function (t) {
			t.style.fontFamily = selftestParams.get('selftest-font');
		});

	/* ---- how the page opens ---- */

	var PX_PER_PT = 4 / 3; /* Graphviz's SVG is in points; 100% is its own size */
	var READABLE = 0.45; /* below this scale 10-point labels are under 6 pixels */

	/* The scale the graph is drawn at: 1 is 100%. */
	function scale() {
		return svg.getScreenCTM().a / PX_PER_PT;
	}

	/* Draws the graph at scale s with the point (cx, cy) of the graph at the
	 * centre of the pane. */
	function zoomTo(s, cx, cy) {
		var r = pane.getBoundingClientRect();
		view.w = r.width / (s * PX_PER_PT);
		view.h = r.height / (s * PX_PER_PT);
		view.x = cx - view.w / 2;
		view.y = cy - view.h / 2;
		applyView();
	}

	/* The graph point at the centre of an element. */
	function centreOf(el) {
		var r = el.getBoundingClientRect();
		return toGraph(r.left + r.width / 2, r.top + r.height / 2);
	}

	/* Where a page too big to read whole opens: the first use in conflict
	 * (the arrowhead of the first red edge, at its consumer), else the
	 * first device_copy, else the top of the graph. */
	function openingPlace() {
		var edges = svg.querySelectorAll('g.edge'), i, g, key, top = null, best;
		for (i = 0; i < edges.length; i++) {
			var title = edges[i].querySelector('title');
			var ends = title ? title.textContent.split('->') : [];
			var arrow = edges[i].querySelector('polygon') || edges[i].querySelector('path');
			/* the legend's sample edge is red too, and no value's */
			key = ends.length ? endKey(ends[0]) : null;
			if (key && edges[i].querySelector('path[stroke="red"]'))
				return { what: 'the first conflict', key: key in records ? key : null,
					point: centreOf(arrow) };
		}
		for (i = 0; i < order.length; i++) {
			key = order[i];
			if (records[key] && records[key].op === 'device_copy' && mainShape[key])
				return { what: 'the first copy', key: key, point: centreOf(mainShape[key]) };
		}
		for (i = 0; i < order.length; i++) {
			g = mainShape[order[i]];
			if (!g)
				continue;
			best = g.getBoundingClientRect();
			if (!top || best.top < top.rect.top)
				top = { key: order[i], rect: best };
		}
		if (!top)
			return null;
		best = centreOf(mainShape[top.key]);
		return { what: 'the top', key: null, point: best, top: true };
	}

	var opened = { whole: true, what: 'the whole graph' };
	fit();
	var fitScale = scale();
	if (fitScale < READABLE) {
		var place = openingPlace();
		if (place) {
			opened = { whole: false, what: place.what, key: place.key };
			zoomTo(1, place.point.x, place.point.y);
			if (place.top) /* the top node near the top of the pane, not its centre */
				zoomTo(1, place.point.x, place.point.y + view.h / 2 - 40);
		}
	}

	/* measured at the scale the page opens at: a browser lays text out for
	 * the pixels it fills, so the same label measures wider at 100% than
	 * in a whole tall graph drawn a few pixels high */
	var labelCounts = fitLabels();

	/* ---- the map of the whole graph, for a page opened zoomed in ---- */

	var map = document.getElementById('map');
	var mapSvg = null, mapView = null;
	var graphGroup = svg.querySelector('g.graph');

	/* Outlines on the map what the pane shows. */
	function updateMap() {
		var r, a, b;
		if (!mapView || map.hidden)
			return;
		r = pane.getBoundingClientRect();
		a = toGraph(r.left, r.top);
		b = toGraph(r.right, r.bottom);
		mapView.setAttribute('x', a.x);
		mapView.setAttribute('y', a.y);
		mapView.setAttribute('width', Math.max(b.x - a.x, 0));
		mapView.setAttribute('height', Math.max(b.y - a.y, 0));
	}

	/* the map draws the graph's own group again (use), stretched to its box */
	if (map && graphGroup && !opened.whole) {
		var use = document.createElementNS(SVG_NS, 'use');
		mapSvg = document.createElementNS(SVG_NS, 'svg');
		mapView = document.createElementNS(SVG_NS, 'rect');
		mapView.id = 'map-view';
		if (!graphGroup.id)
			graphGroup.id = 'graph0';
		use.setAttribute('href', '#' + graphGroup.id);
		mapSvg.setAttribute('preserveAspectRatio', 'none');
		mapSvg.setAttribute('viewBox', [home.x, home.y, home.w, home.h].join(' '));
		mapSvg.appendChild(use);
		mapSvg.appendChild(mapView);
		map.appendChild(mapSvg);
		map.hidden = false;
		mapSvg.addEventListener('click', function (event) {
			var p = mapSvg.createSVGPoint();
			p.x = event.clientX;
			p.y = event.clientY;
			p = p.matrixTransform(mapSvg.getScreenCTM().inverse());
			view.x = p.x - view.w / 2;
			view.y = p.y - view.h / 2;
			applyView();
		});
	}
	updateMap();
	if (opened.key) {
		select(opened.key);
		status('opened at 100% on ' + opened.what + ', ' + records[opened.key].name +
			' (fit shows the whole graph)');
	} else if (!opened.whole) {
		status('opened at 100% on ' + opened.what + ' (fit shows the whole graph)');
	}

	/* ---- self-test (tests/browser-test) ---- */

	function selftest(params) {
		var out = [];
		if (params.has('selftest-view')) {
			out.push('opened on: ' + opened.what + (opened.key ? ', ' + records[opened.key].name : ''));
			out.push('opened at: ' + Math.round(scale() * 100) + '%');
			out.push('whole graph at: ' + Math.round(fitScale * 100) + '% in ' +
				Math.round(pane.clientWidth) + 'x' + Math.round(pane.clientHeight) + ' pixels');
			out.push('map: ' + (map && !map.hidden ? 'shown' : 'hidden'));
		}
		if (params.has('selftest-labels')) {
			var text = svg.querySelector('g.node text');
			var family = text && (text.style.fontFamily || text.getAttribute('font-family'));
			out.push('labels measured in: ' + (text ? text.getAttribute('font-family') : '-'));
			out.push('label font: ' + firstFontOf(family));
			out.push('labels: ' + labelCounts.labels);
			out.push('labels squeezed: ' + labelCounts.squeezed + ', by at most ' +
				Math.round((labelCounts.most - 1) * 100) + '%');
			out.push('labels overflowing: ' + overflowingLabels());
		}
		if (params.has('selftest-map') && mapSvg && !map.hidden) {
			var mr = mapSvg.getBoundingClientRect(), before = view.y, c;
			mapSvg.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true,
				view: window, clientX: mr.left + mr.width / 2, clientY: mr.top + mr.height * 0.75 }));
			c = view.y + view.h / 2;
			out.push('map click moved the view: ' + (view.y > before &&
				Math.abs(c - (home.y + home.h * 0.75)) < home.h / 50 ? 'yes' : 'no'));
		}
		var word, key, g, target, r, rect, pr;
		/* a click on the value's own node, or with selftest-reference on the
		 * first reference node drawn for it */
		['selftest', 'selftest-reference'].forEach(function (mode) {
			if (!params.has(mode))
				return;
			word = params.get(mode);
			key = lookup(word);
			g = key && (mode === 'selftest' ? mainShape[key]
				: (shapes[key] || []).filter(function (s) { return s !== mainShape[key]; })[0]);
			if (!g) {
				out.push(mode + ': no node drawn for ' + word);
				return;
			}
			target = g.querySelector('polygon, ellipse, path, text') || g;
			r = target.getBoundingClientRect();
			target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true,
				view: window, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 }));
			out.push((mode === 'selftest' ? 'clicked: ' : 'clicked a reference to: ') + word);
		});
		if (params.has('selftest-search')) {
			searchBox.value = params.get('selftest-search');
			searchForm.requestSubmit();
			out.push('searched: ' + searchBox.value);
			if (selected && mainShape[selected]) {
				rect = mainShape[selected].getBoundingClientRect();
				pr = pane.getBoundingClientRect();
				out.push('centred: ' + (Math.abs(rect.left + rect.width / 2 - (pr.left + pr.width / 2)) < 3 &&
					Math.abs(rect.top + rect.height / 2 - (pr.top + pr.height / 2)) < 3 ? 'yes' : 'no'));
			}
		}
		if (params.has('selftest-zoom')) {
			/* the +/- buttons, the wheel and a drag, through their handlers */
			var w = view.w, x, paneRect = pane.getBoundingClientRect();
			document.getElementById('zoom-in').click();
			out.push('zoomed in: ' + (view.w < w ? 'yes' : 'no'));
			w = view.w;
			pane.dispatchEvent(new WheelEvent('wheel', { bubbles: true, cancelable: true, deltaY: 100,
				clientX: paneRect.left + paneRect.width / 2,
				clientY: paneRect.top + paneRect.height / 2 }));
			out.push('wheeled out: ' + (view.w > w ? 'yes' : 'no'));
			x = view.x;
			pane.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, button: 0,
				clientX: paneRect.left + 100, clientY: paneRect.top + 100 }));
			window.dispatchEvent(new PointerEvent('pointermove', { bubbles: true,
				clientX: paneRect.left + 160, clientY: paneRect.top + 130 }));
			window.dispatchEvent(new PointerEvent('pointerup', { bubbles: true,
				clientX: paneRect.left + 160, clientY: paneRect.top + 130 }));
			out.push('dragged: ' + (view.x < x ? 'yes' : 'no'));
		}
		if (params.get('selftest-clusters') === 'off') {
			showClusters.click();
			out.push('clusters toggle: ' + document.getElementById('clusters-label').textContent);
			out.push('hidden clusters: ' + svg.querySelectorAll('g.cluster.dp-hidden').length);
		}
		if (params.get('selftest-params') === 'off') {
			showParams.click();
			out.push('hidden nodes: ' + svg.querySelectorAll('g.node.dp-hidden').length);
			out.push('hidden edges: ' + svg.querySelectorAll('g.edge.dp-hidden').length);
		}
		out.push('status: ' + statusLine.textContent);
		out.push('selected: ' + (selected ? records[selected].name : 'nothing'));
		out.push('outlined: ' + svg.querySelectorAll('g.dp-selected').length);
		out.push('panel:');
		out.push(panel.innerText);
		var pre = element('pre', out.join('\n'));
		pre.id = 'selftest-result';
		document.body.appendChild(pre);
	}

	if (selftestParams)
		selftest(selftestParams);
})();
