__version__ = '4.67.1'
