import { describe, expect, it } from 'vitest';
import { integerIds, classTable } from '../../src/formats/id-numbering.js';
import { fileNameFor, formatNames, formats, isFormatName, readerFor, writerFor } from '../../src/formats/registry.js';

describe('registry', () => {
  it('lists every format of the contract with a reader, a writer, a content type and an extension', () => {
    expect(formatNames).toEqual(['mot', 'cvat-video', 'coco', 'yolo', 'supervision-csv', 'kitti', 'sightline']);
    for (const name of formatNames) {
      expect(typeof readerFor(name).write).toBe('function');
      expect(typeof writerFor(name)).toBe('function');
      expect(formats[name].extension).toMatch(/^\.\w+$/);
    }
    expect(formats.yolo.contentType).toBe('application/zip');
    expect(formats['cvat-video'].contentType).toMatch(/^application\/xml/);
    expect(formats['supervision-csv'].contentType).toMatch(/^text\/csv/);
    expect(isFormatName('mot')).toBe(true);
    expect(isFormatName('voc')).toBe(false);
    expect(fileNameFor('yolo', 'run 1/../x')).toBe('run_1_.._x.zip');
    expect(fileNameFor('cvat-video', '..')).toBe('run.xml');
  });
});

describe('ids and classes for integer formats', () => {
  it('keeps decimal integers and numbers the others after the largest, in order of first appearance', () => {
    expect(integerIds(['5', 'car-1', '2', 'x', 'car-1', '007', '-1'])).toEqual([5, 6, 2, 7, 6, 8, -1]);
    expect(integerIds(['a', 'b'])).toEqual([1, 2]);
  });

  it('keeps integer class ids and numbers labels without one', () => {
    const table = classTable([{ label: 'car', classId: 2 }, { label: 'person' }, { label: 'car' }, { classId: 7 }]);
    expect(table.numberOf('person', undefined)).toBe(8);
    expect(table.numberOf('car', undefined)).toBe(2);
    expect([...table.names]).toEqual([
      [2, 'car'],
      [8, 'person'],
    ]);
  });
});
